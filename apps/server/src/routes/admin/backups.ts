import fs from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { route } from '../../http/contract-routes.ts';
import { badRequest, conflict, forbidden, HttpError, notFound } from '../../http/http-error.ts';
import { bodyLimitFor } from '../../http/request-bodies.ts';

export const BACKUP_MESSAGES = {
  noBackupDir: 'Set BACKUP_DIR for the server to keep backups',
  running: 'A backup is already running',
  notOperator: "Only `npm run backup` on the server's machine may ask for this",
};

/**
 * Sends a backup file as a download (its name as the attachment's); 404 when it is gone.
 * `once`: the file is deleted as soon as it is open (the open file is still read whole), so
 * it is served once and never left behind.
 */
async function sendFile(reply: FastifyReply, file: string, name: string, once = false): Promise<FastifyReply> {
  // Opened before answering, so a file deleted meanwhile (pruned, collected) is a 404, not a fault.
  const handle = await fs.promises.open(file, 'r').catch(() => null);
  if (handle === null) throw notFound();
  const { size } = await handle.stat();
  if (once) await fs.promises.rm(file, { force: true });
  // What the file is (a gzip'd tar): never compressed again on the way.
  return reply
    .type('application/gzip')
    .header('content-disposition', `attachment; filename="${name}"`)
    .header('content-length', size)
    .header('cache-control', 'no-store')
    .send(handle.createReadStream());
}

/**
 * Backups (docs/product.md section 15): admins list, start and download the server's own
 * (BACKUP_DIR, plugins/backups.ts); `npm run backup` on the server's machine asks for one of
 * the embedded database, which only this process may open, and collects it.
 */
export async function backupRoutes(app: FastifyInstance) {
  route(app, 'listBackups', {}, () => app.backups.list());

  route(app, 'runBackup', { bodyLimit: bodyLimitFor(0) }, async (_input, _request, reply) => {
    if (!app.config.backupDir) throw badRequest(BACKUP_MESSAGES.noBackupDir);
    const name = app.backups.start('kept');
    if (name === null) throw conflict(BACKUP_MESSAGES.running);
    return reply.code(202).send({ name });
  });

  route(app, 'downloadBackup', {}, async ({ params }, _request, reply) => {
    const file = app.backups.kept(params.name);
    if (file === null) throw notFound();
    return sendFile(reply, file, params.name);
  });

  const operatorOnly = async (request: Parameters<typeof app.backups.fromOperator>[0]) => {
    if (!app.backups.fromOperator(request)) throw forbidden(BACKUP_MESSAGES.notOperator);
  };

  route(app, 'startOperatorBackup', { bodyLimit: bodyLimitFor(0), onRequest: operatorOnly }, async (_i, _r, reply) => {
    const name = app.backups.start('outbox');
    if (name === null) throw conflict(BACKUP_MESSAGES.running);
    return reply.code(202).send({ name });
  });

  route(app, 'operatorBackup', { onRequest: operatorOnly }, async ({ params }, _request, reply) => {
    const progress = app.backups.progress(params.name);
    if (progress === null) throw notFound();
    if (progress.state === 'running') return reply.code(202).send({ state: 'running' });
    if (progress.state === 'failed') throw new HttpError(500, progress.message);
    // Collected once: the outbox keeps nothing (the file holds every password hash).
    app.backups.forget(params.name);
    return sendFile(reply, progress.file, params.name, true);
  });
}
