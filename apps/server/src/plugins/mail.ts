import fp from 'fastify-plugin';
import { createMailer } from '../mail/mailer.ts';

/** The mailer (mail/mailer.ts), closed with the app once the mail it holds has been tried. */
export const mailPlugin = fp(
  async (app) => {
    const mailer = createMailer(app.config.mail, app.log);
    app.decorate('mailer', mailer);
    app.addHook('onClose', async () => mailer.close());
  },
  { name: 'mail' },
);
