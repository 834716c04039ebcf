import { errorCodeOf, MESSAGES } from '@porpoise/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isConnectionError } from '../db/errors.ts';
import { HttpError } from '../http/http-error.ts';

/** An error answer: the text to show and its stable code (issue 17). */
export const errorBody = (status: number, message: string) => ({ error: message, code: errorCodeOf(status, message) });

/**
 * Every error becomes `{error, code}` with an honest status: our HttpErrors as thrown, Fastify's
 * own 4xx (malformed JSON, body too large, wrong content type) as they are, a database that
 * cannot be reached as 503, and anything else as a logged 500 with no details.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        void reply.headers(error.headers).code(error.statusCode).send(errorBody(error.statusCode, error.message));
        return;
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const message = status === 413 ? 'Request body is too large' : error.message;
        void reply.code(status).send(errorBody(status, message));
        return;
      }
      if (isConnectionError(error)) {
        request.log.warn({ err: error }, 'database unavailable');
        void reply.code(503).header('Retry-After', '5').send(errorBody(503, MESSAGES.unavailable));
        return;
      }
      request.log.error({ err: error }, 'unexpected error');
      void reply.code(500).send(errorBody(500, MESSAGES.internal));
    });
  },
  { name: 'errors' },
);
