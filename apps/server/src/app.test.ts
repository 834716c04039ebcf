import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { createTestDatabase, DATABASE_KINDS } from './test/databases.ts';
import { captureLog } from './test/log-capture.ts';
import { uniqueName } from './test/factories.ts';
import { startTestApp, type TestApp } from './test/test-app.ts';

describe.each(DATABASE_KINDS)('the HTTP surface on %s', (kind) => {
  let t: TestApp;
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'porpoise-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Porpoise</title><div id="root"></div>');

  beforeAll(async () => {
    t = await startTestApp(kind, {
      configure: (config) => {
        config.webDistDir = webDir;
      },
    });
  });
  afterAll(async () => t.close());

  const newAccount = () => {
    const username = uniqueName();
    return { username, email: `${username}@example.com`, password: 'secret1' };
  };

  it('answers the health probes', async () => {
    expect((await t.app.inject('/api/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/api/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready', database: kind });
  });

  it('answers malformed JSON with 400 and an error', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { 'content-type': 'application/json' },
      payload: '{"username": "a",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toHaveProperty('error');
  });

  it('answers a body over 1 MB with 413 and keeps serving', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...newAccount(), padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toHaveProperty('error');
    expect((await t.app.inject('/api/healthz')).statusCode).toBe(200);
  });

  it('answers an unknown API route with a JSON 404', async () => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await t.app.inject({
        method,
        url: '/api/no/such/route',
        payload: method === 'POST' ? {} : undefined,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: MESSAGES.notFound, code: expect.any(String) as string });
    }
  });

  it('serves the web app for page routes, including unknown ones', async () => {
    for (const url of ['/', '/home', '/question/12', '/no-such-page']) {
      const response = await t.app.inject(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="root">');
    }
  });

  it('answers a missing built file with 404, not the app', async () => {
    for (const url of ['/assets/index-deadbeef.js', '/missing.css'])
      expect((await t.app.inject(url)).statusCode).toBe(404);
  });

  it('sends a strict content security policy and anti-sniffing headers', async () => {
    const response = await t.app.inject('/');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends API answers the short JSON set: nothing may frame, run or sniff them', async () => {
    const response = await t.app.inject('/api/healthz');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('refuses a state-changing request from a foreign origin and changes nothing', async () => {
    const account = newAccount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { origin: 'https://evil.example' },
      payload: account,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.foreignOrigin, code: expect.any(String) as string });
    const login = await t.app.inject({ method: 'POST', url: '/api/account/login', payload: account });
    expect(login.statusCode).toBe(401);
  });

  it('refuses a cross-site request without Origin when the browser says cross-site', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('accepts a request from its own origin', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
      payload: newAccount(),
    });
    expect(response.statusCode).toBe(200);
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['a form post', 'application/x-www-form-urlencoded'],
  ])('refuses %s bodies with 415', async (_label, contentType) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      headers: { 'content-type': contentType },
      payload: 'username=mallory&email=m%40x.io&password=secret1',
    });
    expect(response.statusCode).toBe(415);
  });

  it.each(['info', 'warn'])(
    'answers an unexpected failure with a bare 500, logged with its request id (log level %s)',
    async (level) => {
      const { lines, logStream } = captureLog();
      const config = loadConfig({ LOG_LEVEL: level });
      const app = await buildApp({ config, database: await createTestDatabase(kind), logStream });
      app.get('/api/test/boom', async () => {
        throw new Error('secret internals at /srv/porpoise/app.ts:42');
      });
      try {
        // A request that goes well writes its two lines at info, and nothing at warn.
        await app.inject('/api/healthz');
        expect(lines).toHaveLength(level === 'info' ? 2 : 0);
        const response = await app.inject('/api/test/boom');
        expect(response.statusCode).toBe(500);
        expect(response.json()).toEqual({ error: MESSAGES.internal, code: expect.any(String) as string });
        const requestId = String(response.headers['x-request-id']);
        expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
        const logged = lines.map((line) => JSON.parse(line) as { reqId?: string; err?: { message?: string } });
        expect(logged.some((line) => line.reqId === requestId && line.err?.message?.includes('secret internals'))).toBe(
          true,
        );
      } finally {
        await app.close();
      }
    },
  );
});
