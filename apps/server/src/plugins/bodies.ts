import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { badRequest } from '../http/http-error.ts';
import { nestsDeeperThan } from '../http/request-bodies.ts';

/** Deeper than any body the API takes (a question's tags are three levels down). */
export const MAX_JSON_DEPTH = 16;

export const TOO_DEEP_MESSAGE = 'The request is nested too deeply';

/**
 * JSON bodies as Fastify parses them (prototype poisoning refused), after a linear check of
 * their nesting depth. Each route's body limit (`bodyLimit`, declared beside the route)
 * caps the bytes read; signed-in routes refuse a visitor before reading any.
 */
export const bodiesPlugin = fp(
  async (app: FastifyInstance) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body.toString();
      if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return done(badRequest(TOO_DEEP_MESSAGE), undefined);
      void parseJson(request, text, done);
    });
  },
  { name: 'bodies' },
);
