import { randomBytes } from 'node:crypto';
import type { Account } from '@porpoise/core';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { accounts } from '../db/schema.ts';

export interface TestUser {
  username: string;
  email: string;
  password: string;
  /** The Cookie header value carrying this user's session. */
  cookie: string;
  account: Account;
}

export const uniqueName = (prefix = 'user') => `${prefix}_${randomBytes(4).toString('hex')}`;

/** The `name=value` of the session cookie a response set. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'porpoise_session');
  if (!cookie) throw new Error(`no session cookie in response ${response.statusCode}: ${response.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Registers a new account through the API and returns it with its session cookie. */
export async function registerUser(
  app: FastifyInstance,
  overrides: Partial<{ username: string; email: string; password: string }> = {},
): Promise<TestUser> {
  const username = overrides.username ?? uniqueName();
  const input = {
    username,
    email: overrides.email ?? `${username}@example.com`,
    password: overrides.password ?? 'secret-pass',
  };
  const response = await app.inject({
    method: 'POST',
    url: '/api/account/addAccount',
    payload: { ...input, createdAt: new Date().toISOString() },
  });
  if (response.statusCode !== 200) throw new Error(`register failed ${response.statusCode}: ${response.body}`);
  return { ...input, cookie: sessionCookie(response), account: response.json<Account>() };
}

/** The internal id of an account, for tests that address rooms or rows directly. */
export async function accountIdOf(app: FastifyInstance, username: string): Promise<number> {
  const [row] = await app.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.username, username));
  if (!row) throw new Error(`no account ${username}`);
  return row.id;
}

/** Posts a question as `user` through the API; returns its id. */
export async function askQuestion(
  app: FastifyInstance,
  user: TestUser,
  input: Partial<{ title: string; text: string; tags: string[] }> = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/addQuestion',
    headers: { cookie: user.cookie },
    payload: {
      title: input.title ?? `Question ${uniqueName('q')}`,
      text: input.text ?? 'Some details about the problem.',
      tags: (input.tags ?? ['general']).map((name) => ({ name, description: '' })),
      askedBy: user.username,
    },
  });
  if (response.statusCode !== 200) throw new Error(`ask failed ${response.statusCode}: ${response.body}`);
  return response.json<{ _id: string }>()._id;
}

export async function answerQuestion(
  app: FastifyInstance,
  user: TestUser,
  qid: string,
  text = 'An answer.',
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/answer/addAnswer',
    headers: { cookie: user.cookie },
    payload: { qid, ans: { text, ansBy: user.username, ansDateTime: new Date().toISOString(), comments: [] } },
  });
  if (response.statusCode !== 200) throw new Error(`answer failed ${response.statusCode}: ${response.body}`);
  return response.json<{ _id: string }>()._id;
}
