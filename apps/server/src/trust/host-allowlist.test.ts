// Trust #23 item 7: pages, the API and socket handshakes answer only to the hosts of
// PUBLIC_URL (unset: localhost, 127.0.0.1 and [::1], any port), so a DNS-rebinding page,
// whose requests name the attacker's host in Host and Origin alike, gets nothing.
import http from 'node:http';
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowedHostnames, hostnameOf } from '../http/allowed-hosts.ts';
import { parsePublicUrl } from '../config.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { websocketStatus } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

/** A GET naming `host` (fetch cannot set Host), answered with its status and body. */
function get(url: string, path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${url}${path}`, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.once('error', reject);
  });
}

const polling = '/socket.io/?EIO=4&transport=polling';
const rebinding = { host: 'attacker.example', origin: 'http://attacker.example' };

describe('host names', () => {
  it('are read from Host without the port, in lower case, IPv6 in brackets', () => {
    expect(hostnameOf('LocalHost:3000')).toBe('localhost');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
    expect(hostnameOf('[::1]:3000')).toBe('[::1]');
    expect(hostnameOf('[::1]')).toBe('[::1]');
    expect(hostnameOf('[::1')).toBeUndefined();
    expect(hostnameOf('')).toBeUndefined();
    expect(hostnameOf(undefined)).toBeUndefined();
    expect(hostnameOf(':3000')).toBeUndefined();
  });

  it('allowed are the localhost names without PUBLIC_URL, else only its host', () => {
    expect([...allowedHostnames(undefined)]).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect([...allowedHostnames('https://Porpoise.Example:8443')]).toEqual(['porpoise.example']);
  });

  it('PUBLIC_URL must be an http or https address', () => {
    expect(parsePublicUrl(undefined)).toBeUndefined();
    expect(parsePublicUrl('')).toBeUndefined();
    expect(parsePublicUrl('https://porpoise.example/')).toBe('https://porpoise.example');
    expect(() => parsePublicUrl('porpoise.example')).toThrow(/PUBLIC_URL/);
    expect(() => parsePublicUrl('ftp://porpoise.example')).toThrow(/PUBLIC_URL/);
  });
});

describe.each(DATABASE_KINDS)('the host allowlist without PUBLIC_URL on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.close());

  it('refuses a page, an API call and both kinds of socket handshake naming another host', async () => {
    for (const path of ['/', '/home', '/api/thread/getThreadById/porpchat']) {
      const response = await get(t.url, path, rebinding);
      expect(response.status, path).toBe(421);
      expect(JSON.parse(response.body), path).toEqual({
        error: MESSAGES.unknownHost,
        code: expect.any(String) as string,
      });
    }
    expect((await get(t.url, polling, rebinding)).status).toBe(403);
    expect(await websocketStatus(t.url, rebinding)).toBe(400); // engine.io refuses an upgrade with 400
  });

  it('answers localhost, 127.0.0.1 and [::1] on any port, and the health check on any host', async () => {
    for (const host of ['localhost:3000', '127.0.0.1', 'LOCALHOST', '[::1]:8080']) {
      expect((await get(t.url, '/api/thread/getThreadById/porpchat', { host })).status, host).toBe(200);
      expect((await get(t.url, '/', { host })).status, host).toBe(200);
      expect(await websocketStatus(t.url, { host }), host).toBe(101);
    }
    expect((await get(t.url, '/api/healthz', rebinding)).status).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('the host allowlist with PUBLIC_URL on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { PUBLIC_URL: 'https://porpoise.example', TRUST_PROXY: '1' } });
  });
  afterAll(async () => t.close());

  it("answers PUBLIC_URL's host only, also when a trusted proxy forwards it", async () => {
    const own = { host: 'porpoise.example' };
    expect((await get(t.url, '/api/thread/getThreadById/porpchat', own)).status).toBe(200);
    expect(await websocketStatus(t.url, own)).toBe(101);
    // A proxy that sends its upstream's name as Host says the client's in X-Forwarded-Host.
    const proxied = { host: '127.0.0.1:3000', 'x-forwarded-host': 'porpoise.example' };
    expect((await get(t.url, '/api/thread/getThreadById/porpchat', proxied)).status).toBe(200);
    expect(await websocketStatus(t.url, proxied)).toBe(101);

    for (const headers of [{ host: 'localhost:3000' }, rebinding, { host: 'porpoise.example.attacker.example' }]) {
      expect((await get(t.url, '/api/thread/getThreadById/porpchat', headers)).status, headers.host).toBe(421);
      expect(await websocketStatus(t.url, headers), headers.host).toBe(400);
    }
  });
});
