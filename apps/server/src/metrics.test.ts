import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from './test/databases.ts';
import { registerUser, type TestUser } from './test/factories.ts';
import { startTestApp, type TestApp } from './test/test-app.ts';

const TOKEN = 'scrape-token-0123456789';

describe.each(DATABASE_KINDS)('GET /api/metrics on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind, { env: { METRICS_TOKEN: TOKEN } });
    alice = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const scrape = (remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) =>
    t.app.inject({ url: '/api/metrics', remoteAddress, headers });

  it('counts requests by route, cache hits and misses, sockets, the pool and the event loop', async () => {
    const list = () => t.app.inject({ url: '/api/getQuestion?order=newest', headers: { cookie: alice.cookie } });
    expect((await list()).statusCode).toBe(200);
    expect((await list()).statusCode).toBe(200);
    await t.app.inject('/api/nothing/here/12345');
    const response = await scrape();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = response.body;
    const value = (series: string) => {
      const line = text.split('\n').find((row) => row.startsWith(`${series} `));
      return line === undefined ? undefined : Number(line.slice(series.length + 1));
    };
    expect(
      value('porpoise_http_request_duration_seconds_count{method="GET",route="/api/getQuestion",status="200"}'),
    ).toBe(2);
    // An unmatched URL is one series, whatever its text.
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toContain('12345');
    expect(value('porpoise_read_cache_misses_total{cache="lists"}')).toBeGreaterThanOrEqual(1);
    expect(value('porpoise_read_cache_hits_total{cache="lists"}')).toBeGreaterThanOrEqual(1);
    expect(value('porpoise_sockets_open')).toBe(0);
    expect(text).toContain('nodejs_eventloop_lag_p99_seconds');
    if (kind === 'postgres') expect(value('porpoise_db_pool_connections{state="open"}')).toBeGreaterThanOrEqual(1);
    else {
      // Grouped commits: alice's sign-up wrote, and was answered after a flush.
      expect(value('porpoise_embedded_flushed_writes_total')).toBeGreaterThanOrEqual(1);
      expect(value('porpoise_embedded_wal_flushes_total')).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers only the loopback address, or a request with the METRICS_TOKEN bearer', async () => {
    const elsewhere = await scrape('203.0.113.7');
    expect(elsewhere.statusCode).toBe(403);
    expect(elsewhere.body).not.toContain('porpoise_');
    expect((await scrape('203.0.113.7', { authorization: 'Bearer wrong-token-0123456789' })).statusCode).toBe(403);
    expect((await scrape('203.0.113.7', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
    expect((await scrape('::1')).statusCode).toBe(200);
  });

  it('takes a request a proxy forwarded for a remote one, and answers a foreign host name only with the token', async () => {
    // Through a proxy on this machine: the connection is local, the client may not be.
    expect((await scrape('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
    // A DNS-rebinding page in a browser on this machine: loopback, but under its own name.
    expect((await scrape('127.0.0.1', { host: 'rebind.example' })).statusCode).toBe(421);
    const scraper = await scrape('10.0.0.9', { host: '10.0.0.5:3000', authorization: `Bearer ${TOKEN}` });
    expect(scraper.statusCode).toBe(200);
    expect(scraper.body).toContain('porpoise_http_request_duration_seconds');
  });

  it('takes any proxy header for a forwarded request: Forwarded, X-Real-IP, X-Forwarded-Host, Via', async () => {
    // nginx and HAProxy setups often send no X-Forwarded-For at all.
    for (const headers of <Array<Record<string, string>>>[
      { forwarded: 'for=203.0.113.7' },
      { 'x-real-ip': '203.0.113.7' },
      { 'x-forwarded-host': 'localhost' },
      { 'x-forwarded-proto': 'https' },
      { via: '1.1 proxy' },
    ]) {
      expect((await scrape('127.0.0.1', headers)).statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect(
      (await scrape('127.0.0.1', { forwarded: 'for=203.0.113.7', authorization: `Bearer ${TOKEN}` })).statusCode,
    ).toBe(200);
  });
});

describe.each(DATABASE_KINDS)('GET /api/metrics behind a proxy (TRUST_PROXY or PUBLIC_URL set) on %s', (kind) => {
  for (const [name, env, host] of [
    ['TRUST_PROXY=1', { TRUST_PROXY: '1' }, 'localhost'],
    ['PUBLIC_URL', { PUBLIC_URL: 'https://porpoise.example' }, 'porpoise.example'],
  ] as const) {
    it(`with ${name}, the loopback gets no free pass: only the METRICS_TOKEN bearer opens`, async () => {
      const t = await startTestApp(kind, { env: { METRICS_TOKEN: TOKEN, ...env } });
      try {
        const scrape = (headers: Record<string, string> = {}) =>
          t.app.inject({ url: '/api/metrics', remoteAddress: '127.0.0.1', headers: { host, ...headers } });
        expect((await scrape()).statusCode).toBe(403);
        expect((await scrape({ authorization: `Bearer ${TOKEN}` })).statusCode).toBe(200);
      } finally {
        await t.close();
      }
    });
  }
});
