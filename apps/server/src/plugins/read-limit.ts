import { MESSAGES } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { isApiRequest } from '../http/api-request.ts';
import { addressKey } from '../auth/client-address.ts';
import { HttpError } from '../http/http-error.ts';
import { MemoryRateLimit } from '../limits/memory-rate-limit.ts';

/** Addresses whose reads are counted at once (about 100 bytes each). */
export const READ_ADDRESSES_KEPT = 50_000;
/** Health checks answer load balancers and supervisors however often they ask. */
const EXEMPT_ROUTES = new Set(['/api/healthz', '/api/readyz']);

/**
 * API reads (GET and HEAD under /api) per client address, far above what a person does
 * (RATE_LIMIT_MULTIPLIER scales it), so one address cannot keep the server busy with
 * reads that each miss the cache. Counted in this process's memory before the session is
 * looked up; past the limit, 429 with Retry-After.
 */
export const readLimitPlugin = fp(
  async (app: FastifyInstance) => {
    const reads = new MemoryRateLimit(app.config.rateLimits.readsPerClient, READ_ADDRESSES_KEPT);
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return done();
      if (!isApiRequest(request) || EXEMPT_ROUTES.has(request.routeOptions.url ?? '')) return done();
      const waitMs = reads.hit(addressKey(request.ip));
      if (waitMs === 0) return done();
      done(new HttpError(429, MESSAGES.tooManyRequests, { 'Retry-After': String(Math.ceil(waitMs / 1000)) }));
    });
  },
  { name: 'read-limit' },
);
