import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which peers are proxies (TRUST_PROXY, docs/product.md section 6): none, the nearest N hops,
 * or the peers whose addresses match a list of addresses/CIDRs (@fastify/proxy-addr's
 * names `loopback`, `linklocal` and `uniquelocal` included).
 */
export type TrustProxy = { hops: number } | { addresses: string[] } | false;

/** Decides whether the peer `hop` steps from us (0: the socket's peer) is a trusted proxy. */
export type TrustFunction = (address: string, hop: number) => boolean;

const HOP_COUNT = /^\d{1,3}$/;

/**
 * Reads TRUST_PROXY: unset, empty, `false`, `no` or `0` trusts nothing (X-Forwarded-For is
 * ignored); `true`, `yes` or `1` one hop; a number N hops; anything else is a
 * comma-separated list of proxy addresses or CIDRs, refused at start if one is malformed.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no') return false;
  if (value === 'true' || value === 'yes') return { hops: 1 };
  if (HOP_COUNT.test(value)) return Number(value) === 0 ? false : { hops: Number(value) };
  const addresses = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  try {
    proxyAddr.compile(addresses);
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be true, a number of hops, or proxy addresses/CIDRs: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return { addresses };
}

/**
 * The trust test Fastify (request.ip, request.protocol) and the socket handshake share.
 * A hop count trusts the nearest N peers, so the client is the (N)th X-Forwarded-For
 * entry from the right: entries further left were written by the client itself.
 */
export function trustFunction(trust: TrustProxy): TrustFunction {
  if (trust === false) return () => false;
  if ('hops' in trust) {
    const { hops } = trust;
    return (_address, hop) => hop < hops;
  }
  return proxyAddr.compile(trust.addresses);
}

/** Headers only a proxy (or a client posing as one) sends; X-Forwarded-* and X-Original-* too. */
const PROXY_HEADERS = new Set([
  'forwarded',
  'via',
  'x-real-ip',
  'x-client-ip',
  'client-ip',
  'true-client-ip',
  'cf-connecting-ip',
  'fastly-client-ip',
  'x-cluster-client-ip',
]);

/**
 * Whether a request says a proxy forwarded it: any header a proxy adds to name the client,
 * host or protocol (nginx's X-Real-IP, HAProxy's or RFC 7239's Forwarded, X-Forwarded-For,
 * -Host, -Proto...). A connection from the loopback that carries one is not the machine's own.
 */
export function forwardedByProxy(headers: IncomingMessage['headers']): boolean {
  return Object.keys(headers).some(
    (name) => PROXY_HEADERS.has(name) || name.startsWith('x-forwarded-') || name.startsWith('x-original-'),
  );
}

/** The client's address for a raw request (the socket handshake), as request.ip gives it for HTTP. */
export function clientAddress(request: IncomingMessage, trust: TrustFunction): string {
  return proxyAddr(request, trust);
}

/** The protocol the client used: X-Forwarded-Proto's last entry when the socket's peer is a trusted proxy. */
export function clientProtocol(request: IncomingMessage, trust: TrustFunction): 'http' | 'https' {
  const forwarded = request.headers['x-forwarded-proto'];
  const peer = request.socket.remoteAddress;
  if (typeof forwarded === 'string' && forwarded !== '' && peer !== undefined && trust(peer, 0)) {
    return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() === 'https' ? 'https' : 'http';
  }
  return (request.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
}

/** The 16-bit groups of a valid IPv6 address (without zone), an embedded IPv4 tail as two groups. */
function ipv6Groups(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const parse = (part: string): number[] => {
    if (part === '') return [];
    return part.split(':').flatMap((group) => {
      if (!group.includes('.')) return [parseInt(group, 16)];
      const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  };
  const first = parse(head);
  const last = tail === undefined ? [] : parse(tail);
  return [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

/**
 * The key every per-address limit counts under (registration, sign-in, PorpChat, sockets):
 * an IPv4 address as it is (an IPv4-mapped IPv6 address included); an IPv6 address by
 * its /64, since one subscriber usually holds a whole /64 and could otherwise take a new
 * address for every request.
 */
export function addressKey(ip: string): string {
  const address = ip.split('%')[0] ?? '';
  // Anything but IPv6 is an IPv4 address, or a trusted proxy's odd entry: kept short.
  if (isIP(address) !== 6) return ip.slice(0, 64);
  const groups = ipv6Groups(address.toLowerCase());
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6);
    return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
