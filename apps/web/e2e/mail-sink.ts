// The browser tests' mail server: a real SMTP server (the `smtp-server` package) that the
// Porpoise server under test sends its mail to (SMTP_URL), and a small HTTP side from
// which the tests read what arrived. Started by playwright.config.ts beside the server.
//   GET /healthz                 ok
//   GET /next?to=ADDRESS         the next mail to ADDRESS not yet taken: {to, subject, text, html};
//                                waits for it up to 10 s (404 after that)
import http from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.MAIL_SINK_SMTP_PORT);
const httpPort = Number(process.env.MAIL_SINK_HTTP_PORT);

interface Mail {
  to: string[];
  subject: string;
  text: string;
  html: string;
}

const mails: Mail[] = [];
const waiters: Array<{ to: string; resolve: (mail: Mail) => void }> = [];

function take(to: string): Mail | undefined {
  const index = mails.findIndex((mail) => mail.to.includes(to));
  return index < 0 ? undefined : mails.splice(index, 1)[0];
}

new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream).then(
      (parsed) => {
        const mail: Mail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: typeof parsed.html === 'string' ? parsed.html : '',
        };
        const index = waiters.findIndex((waiter) => mail.to.includes(waiter.to));
        if (index >= 0) waiters.splice(index, 1)[0]?.resolve(mail);
        else mails.push(mail);
        callback();
      },
      (error: Error) => callback(error),
    );
  },
}).listen(smtpPort, '127.0.0.1');

http
  .createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/healthz') return send(200, { ok: true });
    const to = (url.searchParams.get('to') ?? '').toLowerCase();
    if (url.pathname !== '/next' || to === '') return send(404, { error: 'GET /next?to=ADDRESS' });
    const waiting = take(to);
    if (waiting) return send(200, waiting);
    const waiter = {
      to,
      resolve: (mail: Mail) => {
        clearTimeout(timer);
        send(200, mail);
      },
    };
    const timer = setTimeout(() => {
      waiters.splice(waiters.indexOf(waiter), 1);
      send(404, { error: `no mail to ${to} within 10 s` });
    }, 10_000);
    waiters.push(waiter);
  })
  .listen(httpPort, '127.0.0.1');
