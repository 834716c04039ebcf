import type { FastifyRequest } from 'fastify';

/** Query parameters that are secrets: a mailed link's token (reset a password, confirm an email). */
const SECRET_PARAMS = ['token'];

/** The request's path and query as logged: a secret parameter's value becomes '[redacted]'. */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const params = new URLSearchParams(url.slice(query + 1));
  let changed = false;
  for (const name of SECRET_PARAMS) {
    if (!params.has(name)) continue;
    params.set(name, '[redacted]');
    changed = true;
  }
  return changed ? `${url.slice(0, query)}?${params.toString()}` : url;
}

/** Fastify's request log fields, with the URL's secrets taken out (a reset link's token opens the account). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}
