import type { FastifyRequest } from 'fastify';

/** The request's path, percent-decoded once as the router decodes it (the raw text when malformed). */
function decodedPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/**
 * True when the request is for the API: the route the router matched is under /api, or,
 * for a request no route matched, its decoded path is. Never the raw URL text: the router
 * answers `/%61pi/...` with the `/api/...` routes, so every API guard must cover it too.
 */
export function isApiRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? decodedPath(request.url);
  return path === '/api' || path.startsWith('/api/');
}
