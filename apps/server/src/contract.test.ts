import { ERROR_CODES, MESSAGES } from '@porpoise/core';
import { ENDPOINTS, type Endpoint } from '@porpoise/core/contract';
import { z } from '@porpoise/core/schemas';
import { Validator } from '@seriousme/openapi-schema-validator';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonBody } from './http/json-body.ts';
import { ResponseShapeError, route, useContract } from './http/contract-routes.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { DATABASE_KINDS } from './test/databases.ts';
import { registerUser, uniqueName } from './test/factories.ts';
import { startTestApp, type TestApp } from './test/test-app.ts';

const endpoints = Object.entries(ENDPOINTS) as Array<[string, Endpoint]>;

describe.each(DATABASE_KINDS)('the API contract on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.close());

  it('has every endpoint of the contract registered, at its method and path', () => {
    for (const [, endpoint] of endpoints) {
      expect(t.app.hasRoute({ method: endpoint.method, url: `/api${endpoint.path}` }), endpoint.path).toBe(true);
    }
  });

  it('serves an OpenAPI 3.1 document that validates and lists every endpoint', async () => {
    const response = await t.app.inject('/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json<{
      openapi: string;
      paths: Record<string, Record<string, { operationId: string }>>;
    }>();
    expect(document.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    for (const [name, endpoint] of endpoints) {
      const path = endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}');
      expect(document.paths[path]?.[endpoint.method.toLowerCase()]?.operationId, name).toBe(name);
    }
    const operations = Object.values(document.paths).flatMap((methods) => Object.keys(methods));
    expect(operations).toHaveLength(endpoints.length);
  });

  it('serves a readable reference page that a browser may open, with its own strict CSP', async () => {
    const response = await t.app.inject({ url: '/api/docs', headers: { 'sec-fetch-dest': 'document' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
    for (const [, endpoint] of endpoints)
      expect(response.body).toContain(`/api${endpoint.path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
    // Other API answers still refuse a page load.
    const page = await t.app.inject({ url: '/api/healthz', headers: { 'sec-fetch-dest': 'document' } });
    expect(page.statusCode).toBe(403);
  });

  it('answers every error with a stable code beside its text', async () => {
    const alice = await registerUser(t.app);
    const codeOf = (response: { json: () => unknown }) => (response.json() as { code: string }).code;
    expect(codeOf(await t.app.inject('/api/account/me'))).toBe('not_signed_in');
    expect(codeOf(await t.app.inject('/api/nothing-here'))).toBe('not_found');
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/account/addAccount',
      payload: { username: alice.username, email: `${uniqueName()}@example.com`, password: 'secret1' },
    });
    expect(taken.json()).toEqual({ error: MESSAGES.usernameInUse, code: 'username_taken' });
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      payload: { username: alice.username, password: 'wrong-password' },
    });
    expect(wrong.json()).toEqual({ error: MESSAGES.invalidLogin, code: 'invalid_login' });
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/addQuestion',
      headers: { cookie: alice.cookie },
      payload: { title: '', text: 'x', tags: [{ name: 'a' }] },
    });
    expect(empty.json()).toEqual({ error: MESSAGES.titleEmpty, code: 'invalid_input' });
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/api/account/logout',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.json()).toEqual({ error: MESSAGES.foreignOrigin, code: 'cross_site' });
    for (const response of [taken, wrong, empty, foreign]) expect(ERROR_CODES).toContain(codeOf(response));
  });
});

describe('answers checked against their schemas', () => {
  it('refuses to send an answer with a field its schema does not list, and says nothing of it', async () => {
    const app = Fastify();
    await app.register(errorsPlugin);
    useContract(app);
    route(app, 'healthz', {}, async () => ({ status: 'ok', email: 'alice@example.com' }) as { status: 'ok' });
    const response = await app.inject('/healthz');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: MESSAGES.internal, code: 'internal' });
    expect(response.body).not.toContain('alice@example.com');
    await app.close();
  });

  it('refuses to keep a cached answer with a field its schema does not list', async () => {
    const tag = { name: 'sql', description: '', qcnt: 1, secret: 'x' };
    await expect(JsonBody.of(ENDPOINTS.getTagsWithQuestionNumber.response, [tag])).rejects.toThrow(ResponseShapeError);
    const { secret: _secret, ...clean } = tag;
    expect((await JsonBody.of(ENDPOINTS.getTagsWithQuestionNumber.response, [clean])).text).toBe(
      JSON.stringify([clean]),
    );
  });

  it('stops the server at start when a route is not in the contract', async () => {
    const app = Fastify();
    useContract(app);
    expect(() => app.get('/account/everything', async () => ({}))).toThrow(
      /GET \/account\/everything is not in the API contract/,
    );
    await app.close();
  });

  it('takes each route its schemas from the contract: input parsed and refused with the rule text', () => {
    const schema = ENDPOINTS.addQuestion.body;
    expect(schema.safeParse({ title: '', text: 'x', tags: [{ name: 'a' }] }).error?.issues[0]?.message).toBe(
      MESSAGES.titleEmpty,
    );
    expect(z.toJSONSchema(ENDPOINTS.getQuestionById.response, { io: 'output' })).toMatchObject({
      additionalProperties: false,
    });
  });
});
