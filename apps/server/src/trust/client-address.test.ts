// Trust #15 item 2: the client address per-address limits count under is the one the
// trusted proxy saw, never an X-Forwarded-For entry the client wrote itself, and IPv6
// clients are counted per /64.
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import {
  addressKey,
  clientAddress,
  clientProtocol,
  forwardedByProxy,
  parseTrustProxy,
  trustFunction,
} from '../auth/client-address.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { uniqueName } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** A raw request as a proxy would hand it on: a peer address and the headers it forwarded. */
const rawRequest = (peer: string, headers: Record<string, string> = {}) =>
  ({ headers, socket: { remoteAddress: peer } }) as unknown as IncomingMessage;

describe('TRUST_PROXY', () => {
  it('trusts nothing when unset, empty, false or 0', () => {
    for (const raw of [undefined, '', 'false', 'no', '0', ' FALSE ']) expect(parseTrustProxy(raw)).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  it('reads true, yes and 1 as one hop and a number as that many hops', () => {
    for (const raw of ['true', 'TRUE', 'yes', '1']) expect(parseTrustProxy(raw)).toEqual({ hops: 1 });
    expect(parseTrustProxy('3')).toEqual({ hops: 3 });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
  });

  it('reads anything else as a list of proxy addresses and CIDRs, and refuses a malformed one', () => {
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7 ,fd00::/8,loopback')).toEqual({
      addresses: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', 'loopback'],
    });
    expect(() => parseTrustProxy('10.0.0.0/8,proxy.example')).toThrow(/TRUST_PROXY/);
    expect(() => parseTrustProxy('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });

  it('takes the client from the right: entries the client wrote are never its address', () => {
    const forged = { 'x-forwarded-for': '10.9.9.9, 1.1.1.1, 203.0.113.7' };
    const at = (trust: string | undefined, peer = '127.0.0.1') =>
      clientAddress(rawRequest(peer, forged), trustFunction(parseTrustProxy(trust)));
    expect(at(undefined)).toBe('127.0.0.1');
    expect(at('true')).toBe('203.0.113.7');
    expect(at('1')).toBe('203.0.113.7');
    expect(at('2')).toBe('1.1.1.1');
    // A listed proxy is trusted, and so is each listed hop before it; an unlisted peer is the client.
    expect(at('127.0.0.1')).toBe('203.0.113.7');
    expect(at('127.0.0.1,203.0.113.0/24')).toBe('1.1.1.1');
    expect(at('10.0.0.0/8', '192.0.2.1')).toBe('192.0.2.1');
  });

  it('takes the protocol from the trusted proxy only, as its last X-Forwarded-Proto entry', () => {
    const headers = { 'x-forwarded-proto': 'http, https' };
    expect(clientProtocol(rawRequest('127.0.0.1', headers), trustFunction({ hops: 1 }))).toBe('https');
    expect(clientProtocol(rawRequest('127.0.0.1', headers), trustFunction(false))).toBe('http');
    expect(
      clientProtocol(rawRequest('127.0.0.1', { 'x-forwarded-proto': 'https, http' }), trustFunction({ hops: 1 })),
    ).toBe('http');
  });
});

describe('forwardedByProxy', () => {
  it('takes any proxy header for a forwarded request, not X-Forwarded-For alone', () => {
    for (const name of ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-forwarded-host', 'x-forwarded-proto', 'via']) {
      expect(forwardedByProxy({ [name]: 'x' }), name).toBe(true);
    }
    expect(forwardedByProxy({ host: 'localhost', 'user-agent': 'curl', authorization: 'Bearer t' })).toBe(false);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses, IPv4-mapped ones included, and counts IPv6 per /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:a:b::1')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:0DB8:000a:000b:ffff:1:2:3')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:db8:a:b:1::1%eth0')).toBe('2001:db8:a:b::/64');
    expect(addressKey('2001:db8:a:c::1')).toBe('2001:db8:a:c::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1')).toBe('fe80:0:0:0::/64');
  });
});

describe.each(DATABASE_KINDS)('per-address limits on %s', (kind) => {
  const register = (t: TestApp, headers: Record<string, string>, remoteAddress = '127.0.0.1') => {
    const username = uniqueName();
    return t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      remoteAddress,
      headers,
      payload: { username, email: `${username}@example.com`, password: 'secret-pass' },
    });
  };
  const statusesOf = async (requests: (() => Promise<{ statusCode: number }>)[]) => {
    const statuses: number[] = [];
    for (const request of requests) statuses.push((await request()).statusCode);
    return statuses;
  };
  const LIMIT = 10; // registrations an hour per address (docs/product.md section 6)

  describe('behind one proxy hop (TRUST_PROXY=1)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1', TRUST_PROXY: '1' } });
    });
    afterAll(async () => t.close());

    it('counts 30 registrations with forged left-most X-Forwarded-For entries as one client: 429 past 10', async () => {
      const statuses = await statusesOf(
        Array.from(
          { length: 30 },
          (_, i) => () => register(t, { 'x-forwarded-for': `10.0.0.${i}, 198.51.100.${i}, 203.0.113.7` }),
        ),
      );
      expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), ...Array<number>(30 - LIMIT).fill(429)]);
      // Another client behind the same proxy is its own address.
      expect((await register(t, { 'x-forwarded-for': '10.0.0.1, 203.0.113.8' })).statusCode).toBe(200);
    });
  });

  describe('with TRUST_PROXY unset', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(kind, { env: { RATE_LIMIT_MULTIPLIER: '1' } });
    });
    afterAll(async () => t.close());

    it('ignores X-Forwarded-For: the peer address is the client', async () => {
      const statuses = await statusesOf(
        Array.from(
          { length: LIMIT + 1 },
          (_, i) => () => register(t, { 'x-forwarded-for': `203.0.113.${i}` }, '192.0.2.10'),
        ),
      );
      expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
      expect((await register(t, {}, '192.0.2.11')).statusCode).toBe(200);
    });

    it('counts IPv6 clients per /64: addresses in one /64 share the limit, the next /64 does not', async () => {
      const statuses = await statusesOf(
        Array.from({ length: LIMIT + 1 }, (_, i) => () => register(t, {}, `2001:db8:7:1:${i.toString(16)}::${i + 1}`)),
      );
      expect(statuses).toEqual([...Array<number>(LIMIT).fill(200), 429]);
      expect((await register(t, {}, '2001:db8:7:1:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
      expect((await register(t, {}, '2001:db8:7:2::1')).statusCode).toBe(200);
    });
  });
});
