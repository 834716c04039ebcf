import type { IncomingMessage } from 'node:http';
import type { TrustFunction } from '../auth/client-address.ts';

/** The host names a server answers to when PUBLIC_URL is unset: this machine's own, on any port. */
export const LOCAL_HOSTNAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/**
 * The host name of a Host header value, lower-cased and without its port: `example.org:3000`
 * gives `example.org`, `[::1]:3000` gives `[::1]`. A scan, not a pattern: the header is the
 * client's to write. Undefined when there is no name to take.
 */
export function hostnameOf(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  let name: string;
  if (host.startsWith('[')) {
    name = host.slice(0, host.indexOf(']') + 1);
  } else {
    const colon = host.lastIndexOf(':');
    name = colon === -1 ? host : host.slice(0, colon);
  }
  return name === '' ? undefined : name.toLowerCase();
}

/**
 * Which host names requests may name (docs/product.md section 6): the host of PUBLIC_URL when
 * it is set, else localhost, 127.0.0.1 and [::1]; the port is not compared (a proxy in
 * front may use its own). A DNS-rebinding page reaches the server under the attacker's
 * name, which is never on the list.
 */
export function allowedHostnames(publicUrl: string | undefined): ReadonlySet<string> {
  return new Set(publicUrl === undefined ? LOCAL_HOSTNAMES : [new URL(publicUrl).hostname.toLowerCase()]);
}

/**
 * The host the client addressed: X-Forwarded-Host's last entry when the socket's peer is a
 * trusted proxy (a proxy may send its upstream's name as Host), else the Host header.
 */
export function requestHost(request: IncomingMessage, trust: TrustFunction): string | undefined {
  const forwarded = request.headers['x-forwarded-host'];
  const peer = request.socket.remoteAddress;
  if (typeof forwarded === 'string' && forwarded !== '' && peer !== undefined && trust(peer, 0)) {
    return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim();
  }
  return request.headers.host;
}

/** True when the request names a host this server answers to. */
export function namesAllowedHost(
  request: IncomingMessage,
  trust: TrustFunction,
  allowed: ReadonlySet<string>,
): boolean {
  const name = hostnameOf(requestHost(request, trust));
  return name !== undefined && allowed.has(name);
}
