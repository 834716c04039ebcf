import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A mail as the inbox received it over SMTP, parsed. */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Its headers by lower-case name, each as written after its colon (List-Unsubscribe and the like). */
  headers: Map<string, string>;
}

export interface SmtpInbox {
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `to` (one already received and not yet taken counts), within `ms`. */
  next(to: string, ms?: number): Promise<ReceivedMail>;
  /** Refuses the next `count` messages with a temporary error (a mail server having a bad moment). */
  refuseNext(count: number): void;
  /** Messages refused so far. */
  refused(): number;
  /** Holds every message until the returned function is called (a slow mail server). */
  hold(): () => void;
  close(): Promise<void>;
}

/**
 * A real SMTP server in the test process (the `smtp-server` package): the app's mailer
 * talks SMTP to it exactly as to a production server, and each message is parsed back.
 */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const waiters: Array<{ to: string; resolve: (mail: ReceivedMail) => void }> = [];
  let refusals = 0;
  let refusedCount = 0;
  let held: Promise<void> | null = null;

  const deliver = (mail: ReceivedMail) => {
    mails.push(mail);
    const index = waiters.findIndex((waiter) => mail.to.includes(waiter.to.toLowerCase()));
    if (index < 0) return;
    const [waiter] = waiters.splice(index, 1);
    taken.add(mail);
    waiter?.resolve(mail);
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        void (async () => {
          if (held) await held;
          if (refusals > 0) {
            refusals -= 1;
            refusedCount += 1;
            const error = Object.assign(new Error('Try again later'), { responseCode: 451 });
            return callback(error);
          }
          const parsed = await simpleParser(Buffer.concat(chunks));
          deliver({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: new Map(
              parsed.headerLines.map(({ key, line }) => [key, line.slice(line.indexOf(':') + 1).trim()]),
            ),
          });
          callback();
        })();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    next(to, ms = 10_000) {
      const waiting = mails.find((mail) => !taken.has(mail) && mail.to.includes(to.toLowerCase()));
      if (waiting) {
        taken.add(waiting);
        return Promise.resolve(waiting);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${ms} ms`)), ms);
        waiters.push({
          to,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    refuseNext(count) {
      refusals = count;
    },
    refused: () => refusedCount,
    hold() {
      let release = () => {};
      held = new Promise<void>((resolve) => (release = resolve));
      return () => {
        held = null;
        release();
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
