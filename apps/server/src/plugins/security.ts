import type { ServerResponse, IncomingMessage } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';
import { MESSAGES } from '@porpoise/core';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { allowedHostnames, namesAllowedHost } from '../http/allowed-hosts.ts';
import { isApiRequest } from '../http/api-request.ts';
import { bearerMatches } from './metrics.ts';
import { trustFunction } from '../auth/client-address.ts';
import { forbidden, HttpError } from '../http/http-error.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The one route that answers whatever host a request names. */
const HEALTH_ROUTE = '/api/healthz';
const METRICS_ROUTE = '/api/metrics';

/** The origin this request was addressed to, e.g. http://localhost:3000. */
export const ownOrigin = (protocol: string, host: string | undefined) => `${protocol}://${host ?? ''}`;

/**
 * True when a browser says the request comes from another site: an Origin that is not
 * ours, or, without Origin, Sec-Fetch-Site: cross-site. Used for HTTP and the socket handshake.
 */
export function isCrossSite(
  headers: Record<string, string | string[] | undefined>,
  protocol: string,
  host: string | undefined,
): boolean {
  const origin = headers.origin;
  if (typeof origin === 'string' && origin !== 'null') return origin !== ownOrigin(protocol, host);
  if (origin === 'null') return true;
  return headers['sec-fetch-site'] === 'cross-site';
}

/**
 * False when a browser says the request loads an image, a page, a frame or the like
 * (Sec-Fetch-Dest present and not `empty`): a tag a stranger planted, say an IMG in
 * PorpChat pointing at /api/getQuestionById/..., would otherwise record a view or mark a
 * thread read with the reader's cookie. fetch() and XHR send `empty`; non-browsers send none.
 */
function fetchedByScript(headers: Record<string, string | string[] | undefined>): boolean {
  const dest = headers['sec-fetch-dest'];
  return dest === undefined || dest === 'empty';
}

/** The API's own description and reference page: documents a browser may open, with no effect. */
const DOCUMENTS = new Set(['/api/docs', '/api/openapi.json']);
/** Files our pages link for download (an admin's backup, /admin): documents, from our own pages only. */
const DOWNLOADS = new Set(['/api/admin/backups/:name']);

/** A document request a browser may make: the API's description, or a download our own page started. */
function documentAllowed(url: string, headers: Record<string, string | string[] | undefined>): boolean {
  if (DOCUMENTS.has(url)) return true;
  const site = headers['sec-fetch-site'];
  return DOWNLOADS.has(url) && (site === undefined || site === 'same-origin' || site === 'none');
}

/**
 * API answers are JSON, never a page: the short set the OWASP REST cheat sheet gives
 * (nothing may frame, load or sniff them) instead of a document's full set.
 */
const API_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

/** The headers Helmet sets for these options, captured from one dry run. */
function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * Security headers (a strict CSP with no inline scripts, nosniff, frame-ancestors 'none')
 * and the cross-site request guard: state-changing API requests must come from our origin
 * and carry JSON (no text/plain or form bodies, which a foreign page could send).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    // Host allowlist first (docs/product.md section 6): a DNS-rebinding page reaches us under its
    // own name and gets nothing, not even a page. The health check answers any name: an
    // orchestrator probes by address, and it says nothing and changes nothing.
    const trust = trustFunction(app.config.trustProxy);
    const hostnames = allowedHostnames(app.config.publicUrl);
    const { metricsToken } = app.config;
    app.addHook('onRequest', (request, _reply, done) => {
      // The metrics too, but only with their token: from the loopback address without it,
      // a DNS-rebinding page in a browser on this machine could read them.
      const route = request.routeOptions.url;
      const metricsWithToken =
        route === METRICS_ROUTE && metricsToken !== undefined && bearerMatches(request, metricsToken);
      if (namesAllowedHost(request.raw, trust, hostnames) || route === HEALTH_ROUTE || metricsWithToken) return done();
      done(new HttpError(421, MESSAGES.unknownHost));
    });
    // Helmet works out the headers once; every response then gets the same set (Helmet
    // would otherwise rebuild its policy on each request).
    const headers = securityHeaders({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          // PorpChat shows images from elsewhere only when the reader asks, and only over https.
          imgSrc: ["'self'", 'https:'],
          connectSrc: ["'self'"],
          fontSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      // Same-origin app over plain HTTP on localhost: HSTS belongs to the TLS proxy in front.
      strictTransportSecurity: false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      void reply.headers(isApiRequest(request) ? API_HEADERS : headers);
      done();
    });
    app.removeContentTypeParser('text/plain');
    app.addHook('onRequest', (request, _reply, done) => {
      const api = isApiRequest(request);
      if (
        api &&
        !fetchedByScript(request.headers) &&
        !documentAllowed(request.routeOptions.url ?? '', request.headers)
      ) {
        return done(forbidden(MESSAGES.notForScripts));
      }
      const guarded = !SAFE_METHODS.has(request.method) && api;
      done(
        guarded && isCrossSite(request.headers, request.protocol, request.host)
          ? forbidden(MESSAGES.foreignOrigin)
          : undefined,
      );
    });
  },
  { name: 'security' },
);
