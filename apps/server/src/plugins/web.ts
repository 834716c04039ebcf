import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody } from './errors.ts';
import { isApiRequest } from '../http/api-request.ts';

/**
 * Serves the built web app, compressed as the build stored it, and answers every unknown
 * page route with its index.html (the SPA shows its own not-found screen); unknown API
 * routes get a JSON 404.
 */
export const webPlugin = fp(
  async (app: FastifyInstance, options: { webDistDir: string }) => {
    const indexPath = path.join(options.webDistDir, 'index.html');
    const hasWeb = fs.existsSync(indexPath);
    if (hasWeb) {
      await app.register(fastifyStatic, {
        root: options.webDistDir,
        wildcard: false,
        index: false,
        // The build writes NAME.br and NAME.gz beside each text file (apps/web/vite-precompress.ts):
        // sent by Accept-Encoding (br, then gzip, q-values respected) with Vary: Accept-Encoding.
        preCompressed: true,
        // The copies are not pages of their own.
        globIgnore: ['**/*.br', '**/*.gz'],
        setHeaders: (res, filePath) => {
          // Vite fingerprints assets, so they can be cached for good; index.html names the
          // current ones, so a browser asks again each time (set here: send's own
          // 'public, max-age=0' would replace a header set before sendFile).
          if (filePath.includes(`${path.sep}assets${path.sep}`))
            void res.header('Cache-Control', 'public, max-age=31536000, immutable');
          // (filePath is the copy sent: index.html, index.html.br or index.html.gz.)
          else if (filePath.startsWith(indexPath)) void res.header('Cache-Control', 'no-cache');
        },
      });
    }
    app.setNotFoundHandler((request, reply) => {
      // A missing built file is a 404, never index.html: a browser would refuse HTML as a script.
      const isFile = request.url.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '');
      if (isApiRequest(request) || (request.method !== 'GET' && request.method !== 'HEAD') || isFile) {
        return reply.code(404).send(errorBody(404, MESSAGES.notFound));
      }
      if (!hasWeb) {
        return reply.code(503).type('text/plain').send('The web app is not built: run `npm run build`.');
      }
      return reply.sendFile('index.html');
    });
  },
  { name: 'web' },
);
