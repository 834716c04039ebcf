/**
 * The one way Porpoise sends mail (docs/product.md section 10): through SMTP when SMTP_URL is
 * set, otherwise into the server's log (recipient and subject only) and, with MAIL_DIR, as
 * a `.eml` file there, so a fresh install still lets a person reset a password. Mail
 * leaves after the write that asked for it has committed (the event processor calls
 * `send`), never on the request's path: a slow or failing mail server costs the request
 * nothing. A failed send is tried
 * again later (config.ts: after 2 s, 10 s, 1 min, 5 min), at most MAX_PENDING mails waiting.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { createTransport, Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/** A mail as the templates make it: text and HTML parts, never a password. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers (a digest's List-Unsubscribe and List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

export interface MailConfig {
  /** A failed send is tried again after each of these, then given up (and logged). */
  retryDelaysMs: readonly number[];
  /** smtp://user:pass@host:port (smtps:// for TLS); unset: log and MAIL_DIR. */
  smtpUrl: string | undefined;
  from: string;
  /** Where mails are written as .eml files when there is no SMTP server. */
  dir: string | undefined;
}

export interface Mailer {
  /** Queues the mail; it is sent (and retried) in the background. */
  send(mail: OutgoingMail): void;
  /** Resolves once every mail queued so far has been sent or given up on (for tests and shutdown). */
  idle(): Promise<void>;
  /** Mails waiting to be sent or tried again (a sender of many waits for `idle` past a few hundred). */
  pending(): number;
  close(): Promise<void>;
}

/** Mails waiting to be sent or retried; past it, a new mail is dropped with an error in the log. */
const MAX_PENDING = 1_000;

type Deliver = (mail: OutgoingMail) => Promise<void>;

/**
 * A nodemailer transport made when the first mail goes out: nodemailer is loaded then, not
 * at start (about 4 MB that a server sending no mail never holds: README, "Memory").
 */
function lazyTransport<Options extends Parameters<typeof createTransport>[0]>(
  options: () => Options,
): { get: () => Promise<Transporter>; close: () => void } {
  let made: Promise<Transporter> | undefined;
  return {
    get: () => (made ??= import('nodemailer').then(({ createTransport }) => createTransport(options()))),
    close: () => void made?.then((transport) => transport.close()),
  };
}

/**
 * SMTP: a pool of at most 5 connections (1,000 waiting mails never open 1,000), and
 * timeouts, so a mail server that stops answering frees the connection (and shutdown).
 */
function smtpDelivery(config: MailConfig & { smtpUrl: string }): { deliver: Deliver; close: () => void } {
  const transport = lazyTransport(() => ({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 5,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  }));
  return {
    deliver: async (mail) => {
      await (await transport.get()).sendMail({ from: config.from, ...mail });
    },
    close: transport.close,
  };
}

/**
 * No SMTP server: the log says who a mail is to and what about, never its text (a link's
 * token would open the account to whoever reads the log: docs/product.md section 10, Account
 * settings); MAIL_DIR gets the whole mail.
 */
function localDelivery(config: MailConfig, log: FastifyBaseLogger): { deliver: Deliver; close: () => void } {
  const transport = lazyTransport(() => ({ streamTransport: true, buffer: true, newline: 'unix' }) as const);
  return {
    deliver: async (mail) => {
      log.info({ mail: { to: mail.to, subject: mail.subject } }, 'mail (no SMTP_URL: not sent)');
      if (config.dir === undefined) return;
      const info = await (await transport.get()).sendMail({ from: config.from, ...mail });
      await fs.mkdir(config.dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await fs.writeFile(path.join(config.dir, name), info.message as Buffer);
    },
    close: transport.close,
  };
}

export function createMailer(config: MailConfig, log: FastifyBaseLogger): Mailer {
  const retryDelaysMs = config.retryDelaysMs;
  const delivery =
    config.smtpUrl === undefined ? localDelivery(config, log) : smtpDelivery({ ...config, smtpUrl: config.smtpUrl });
  const timers = new Set<NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let pending = 0;
  let closed = false;
  let settled: Array<() => void> = [];

  const maybeIdle = () => {
    if (pending > 0) return;
    for (const resolve of settled) resolve();
    settled = [];
  };

  const attempt = (mail: OutgoingMail, tries: number) => {
    const sending = delivery.deliver(mail).then(
      () => {
        pending -= 1;
      },
      (error: unknown) => {
        const delay = retryDelaysMs[tries];
        if (delay === undefined || closed) {
          pending -= 1;
          log.error({ err: error, to: mail.to, subject: mail.subject }, 'mail given up after retries');
          return;
        }
        log.warn({ err: error, to: mail.to, tries: tries + 1 }, `mail failed; trying again in ${delay} ms`);
        const timer = setTimeout(() => {
          timers.delete(timer);
          attempt(mail, tries + 1);
        }, delay);
        timer.unref();
        timers.add(timer);
      },
    );
    inFlight.add(sending);
    void sending.finally(() => {
      inFlight.delete(sending);
      maybeIdle();
    });
  };

  return {
    send(mail) {
      if (closed) return;
      if (pending >= MAX_PENDING) {
        log.error({ to: mail.to, subject: mail.subject }, `mail dropped: ${MAX_PENDING} already waiting`);
        return;
      }
      pending += 1;
      attempt(mail, 0);
    },
    pending: () => pending,
    idle: () => (pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => settled.push(resolve))),
    async close() {
      closed = true;
      // Retries not yet due are given up now (and said so), before waiting for the sends under way.
      if (timers.size > 0) log.error({ mails: timers.size }, 'mail waiting to be tried again dropped at shutdown');
      for (const timer of timers) clearTimeout(timer);
      pending -= timers.size;
      timers.clear();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      maybeIdle();
      delivery.close();
    },
  };
}
