import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sendDueDigests, sweepReadNotifications, type Digest } from '../commands/digests.ts';
import { digestMail } from '../mail/templates.ts';
import { presentNotification } from '../presenters/notification.ts';

/** Past this many mails waiting, the digest run waits for the mailer to catch up (its queue holds 1,000). */
const MAILS_WAITING_MAX = 500;

/** What each notification kind says in a digest. */
const SAYS: Record<string, string> = {
  answer: 'answered your question',
  comment: 'commented on your post',
  mention: 'mentioned you',
  accept: 'accepted your answer',
  followedAnswer: 'answered a question you follow',
};

export interface DigestRunner {
  /** Sends every due digest now; answers how many were sent (POST /api/admin/digests/run). */
  run(): Promise<number>;
}

/**
 * Email digests (docs/product.md section 11): every DIGEST_CHECK_MINUTES each process sends
 * the digests that are due (claimed in the database, so two processes never send one twice)
 * and sweeps read notifications older than 180 days. One run at a time per process.
 */
export const digestsPlugin = fp(
  async (app: FastifyInstance) => {
    const link = (path: string) => `${app.config.linkBase}${path}`;
    const mailOf = (digest: Digest) => {
      const unsubscribe = `?token=${digest.token}`;
      return digestMail(digest.email, digest.username, {
        notifications: digest.notifications.map((row) => {
          const notification = presentNotification(row);
          return {
            line: `${notification.actor} ${SAYS[notification.kind] ?? 'notified you'}: ${notification.snippet}`,
            href: link('/notifications'),
          };
        }),
        questions: digest.questions.map((question) => ({
          line: `${question.title} (${question.score} votes, ${question.answerCount} answers)`,
          href: link(`/question/${question.id}`),
        })),
        unsubscribePage: link(`/unsubscribe${unsubscribe}`),
        oneClick: link(`/api/digest/unsubscribe${unsubscribe}`),
      });
    };
    let running: Promise<number> | null = null;
    const runner: DigestRunner = {
      run() {
        running ??= sendDueDigests(
          app.db,
          (digest) => app.mailer.send(mailOf(digest)),
          async () => {
            if (app.mailer.pending() > MAILS_WAITING_MAX) await app.mailer.idle();
          },
        ).finally(() => (running = null));
        return running;
      },
    };
    app.decorate('digests', runner);
    const timer = setInterval(() => {
      runner
        .run()
        .then(
          (sent) => sent > 0 && app.log.info({ sent }, 'email digests sent'),
          (error: unknown) => app.log.warn({ err: error }, 'email digests could not be sent'),
        )
        .then(() => sweepReadNotifications(app.db))
        .then(
          (swept) => swept > 0 && app.log.info({ swept }, 'old read notifications deleted'),
          (error: unknown) => app.log.warn({ err: error }, 'old read notifications could not be deleted'),
        );
    }, app.config.digestCheckMs).unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await running;
    });
  },
  { name: 'digests', dependencies: ['database', 'mail'] },
);
