// Trust #23 item 1: anonymous socket.io handshakes are capped per address (IPv6 per /64) and
// in total, refused before engine.io keeps anything, counted until they close, and one left
// unused is dropped after 5 s (it lived ~45 s, and a flood of them filled the heap).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { websocketStatus } from '../test/sockets.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const PER_ADDRESS = 50;

/** A polling handshake as a cookie-less script sends it, from `address` (via the trusted proxy). */
async function handshake(url: string, address: string): Promise<{ status: number; sid?: string }> {
  const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling`, {
    headers: { 'x-forwarded-for': address },
  });
  const body = await response.text();
  if (response.status !== 200) return { status: response.status };
  return { status: 200, sid: (JSON.parse(body.slice(1)) as { sid: string }).sid };
}

/** Ends a polling session with an engine.io close packet; engine.io handles it before answering. */
async function closeSession(url: string, sid: string, address: string): Promise<void> {
  const response = await fetch(`${url}/socket.io/?EIO=4&transport=polling&sid=${sid}`, {
    method: 'POST',
    headers: { 'x-forwarded-for': address, 'content-type': 'text/plain;charset=UTF-8' },
    body: '1',
  });
  expect(response.status).toBe(200);
}

describe.each(DATABASE_KINDS)('socket handshake limits on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => t.close());

  it('refuses the handshake past 50 live ones from one address, and counts them down as they close', async () => {
    const attacker = '203.0.113.7';
    const sids: string[] = [];
    for (let i = 0; i < PER_ADDRESS; i++) {
      const opened = await handshake(t.url, attacker);
      expect(opened.status).toBe(200);
      sids.push(opened.sid ?? '');
    }
    expect(await handshake(t.url, attacker)).toEqual({ status: 403 });
    // engine.io refuses any upgrade with 400.
    expect(await websocketStatus(t.url, { 'x-forwarded-for': attacker })).toBe(400);
    expect(t.app.realtime.clientCounts()).toEqual({ total: PER_ADDRESS, addresses: 1 });

    // Another address is not held up by the first one's handshakes.
    const other = await handshake(t.url, '203.0.113.8');
    expect(other.status).toBe(200);
    expect(t.app.realtime.clientCounts()).toEqual({ total: PER_ADDRESS + 1, addresses: 2 });

    for (const sid of sids) await closeSession(t.url, sid, attacker);
    await closeSession(t.url, other.sid ?? '', '203.0.113.8');
    expect(t.app.realtime.clientCounts()).toEqual({ total: 0, addresses: 0 });

    const again = await handshake(t.url, attacker);
    expect(again.status).toBe(200);
    await closeSession(t.url, again.sid ?? '', attacker);
    expect(t.app.realtime.clientCounts()).toEqual({ total: 0, addresses: 0 });
  });

  it('counts IPv6 addresses of one /64 as one client', async () => {
    const sids: string[] = [];
    for (let i = 1; i <= PER_ADDRESS; i++) {
      const opened = await handshake(t.url, `2001:db8:1:2::${i.toString(16)}`);
      expect(opened.status).toBe(200);
      sids.push(opened.sid ?? '');
    }
    expect((await handshake(t.url, '2001:db8:1:2:ffff::1')).status).toBe(403);
    for (const sid of sids) await closeSession(t.url, sid, '2001:db8:1:2::1');
    expect(t.app.realtime.clientCounts()).toEqual({ total: 0, addresses: 0 });
  });

  it('drops a handshake left unused after about 5 s', async () => {
    const closed = new Promise<number>((resolve) => {
      t.app.realtime.io.engine.once('connection', (client: { once(event: 'close', fn: () => void): void }) => {
        const opened = performance.now();
        client.once('close', () => resolve(performance.now() - opened));
      });
    });
    expect((await handshake(t.url, '198.51.100.1')).status).toBe(200);
    expect(t.app.realtime.clientCounts().total).toBe(1);
    const lived = await closed;
    expect(lived).toBeGreaterThan(4_000);
    expect(lived).toBeLessThan(10_000);
    expect(t.app.realtime.clientCounts()).toEqual({ total: 0, addresses: 0 });
  });
});

describe.each(DATABASE_KINDS)('the total socket limit on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(kind, { env: { TRUST_PROXY: '1', SOCKETS_TOTAL: '3' } });
  });
  afterAll(async () => t.close());

  it('refuses a handshake from a new address once the process holds SOCKETS_TOTAL', async () => {
    const opened = [];
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3']) {
      const one = await handshake(t.url, address);
      expect(one.status).toBe(200);
      opened.push({ sid: one.sid ?? '', address });
    }
    expect((await handshake(t.url, '192.0.2.4')).status).toBe(403);
    const [first] = opened;
    if (first) await closeSession(t.url, first.sid, first.address);
    expect((await handshake(t.url, '192.0.2.4')).status).toBe(200);
  });
});
