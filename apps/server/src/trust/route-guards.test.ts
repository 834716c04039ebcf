// Trust #15 item 9: guards match the route, not the raw URL text. The router answers
// `/%61pi/...` with the `/api/...` routes, so the cross-site guard, the Sec-Fetch-Dest
// guard, the API headers and the session must hold there exactly as under `/api/...`.
import { MESSAGES, type Account } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

// The same routes, spelled as the router reads them and with an escaped letter.
const PREFIXES = ['/api', '/%61pi', '/%61%70%69'];

const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
};

describe.each(DATABASE_KINDS)('guards on escaped API paths on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  it.each(PREFIXES)('refuses a cross-site POST to %s/addQuestion with 403 and stores nothing', async (prefix) => {
    const before = await snapshot(t.app.db);
    const response = await t.app.inject({
      method: 'POST',
      url: `${prefix}/addQuestion`,
      headers: { cookie: alice.cookie, origin: 'https://evil.example' },
      payload: { title: 'Forged', text: 'Sent by another site', tags: [{ name: 'forged' }] },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.foreignOrigin, code: expect.any(String) as string });
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it.each(PREFIXES)('refuses a cross-site anonymous PorpChat post to %s/message/addMessage', async (prefix) => {
    const before = await snapshot(t.app.db);
    const response = await t.app.inject({
      method: 'POST',
      url: `${prefix}/message/addMessage`,
      headers: { origin: 'https://evil.example' },
      payload: { tid: 'porpchat', msg: { content: 'Posted by another site', sender: 'visitor' } },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: MESSAGES.foreignOrigin, code: expect.any(String) as string });
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it.each(PREFIXES)('refuses an image loading %s/getQuestionById with 403 and records no view', async (prefix) => {
    const qid = await askQuestion(t.app, alice);
    const reader = await registerUser(t.app);
    const before = await snapshot(t.app.db);
    const response = await t.app.inject({
      method: 'GET',
      url: `${prefix}/getQuestionById/${qid}`,
      headers: { cookie: reader.cookie, 'sec-fetch-dest': 'image' },
    });
    expect(response.statusCode).toBe(403);
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it.each(PREFIXES)('sends the API headers and reads the session on %s/account/me', async (prefix) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${prefix}/account/me`,
      headers: { cookie: alice.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<Account>().username).toBe(alice.username);
    expect(response.headers).toMatchObject(API_HEADERS);
  });

  it.each(PREFIXES)('answers an unknown route under %s with a JSON 404 and the API headers', async (prefix) => {
    const response = await t.app.inject({ method: 'GET', url: `${prefix}/noSuchRoute` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: MESSAGES.notFound, code: expect.any(String) as string });
    expect(response.headers).toMatchObject(API_HEADERS);
  });
});
