import { SOCKET_EVENTS, type Question, type QuestionSummary } from '@porpoise/core';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from './test/databases.ts';
import { uniqueName } from './test/factories.ts';
import { startServerProcess, type ServerProcess } from './test/server-process.ts';
import { connected, nextEvent, openSocket, showQuestions, until } from './test/sockets.ts';

interface Client {
  username: string;
  cookie: string;
}

/** Registers a new account on a server process; its session cookie comes back with it. */
async function register(server: ServerProcess): Promise<Client> {
  const username = uniqueName();
  const response = await fetch(`${server.url}/api/account/addAccount`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password: 'secret-pass' }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('porpoise_session='));
  if (!cookie) throw new Error('no session cookie');
  return { username, cookie: cookie.split(';')[0]! };
}

/**
 * Two real server processes on one PostgreSQL (what `npm run start:cluster` runs behind
 * one port): sessions, every socket event type, the read caches and sign-out all cross
 * from one process to the other.
 */
describe('two server processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let one: ServerProcess;
  let two: ServerProcess;
  const sockets: Socket[] = [];

  // The uploads directory both share, as a cluster's processes share a disk (docs/product.md section 14).
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'porpoise-cluster-uploads-'));

  beforeAll(async () => {
    database = await createPostgresDatabase();
    // The first process migrates the new database; the second starts on it right after.
    one = await startServerProcess({ DATABASE_URL: database.url, UPLOADS_DIR: uploadsDir });
    two = await startServerProcess({ DATABASE_URL: database.url, UPLOADS_DIR: uploadsDir });
  }, 120_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    for (const server of [one, two]) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await database.drop();
    rmSync(uploadsDir, { recursive: true, force: true });
  }, 60_000);

  async function call(server: ServerProcess, method: string, path: string, cookie: string | null, body?: unknown) {
    const response = await fetch(`${server.url}/api${path}`, {
      method,
      headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, json: () => JSON.parse(text) as unknown };
  }

  async function socketOn(server: ServerProcess, client: Client | null): Promise<Socket> {
    const socket = openSocket(server.url, client ? { cookie: client.cookie } : {});
    sockets.push(socket);
    await connected(socket);
    return socket;
  }

  /** The cache invalidations a process has heard (its metrics): the event a read after a write waits for. */
  async function invalidationsHeard(server: ServerProcess): Promise<number> {
    const text = await (await fetch(`${server.url}/api/metrics`)).text();
    const line = text.split('\n').find((row) => row.startsWith('porpoise_signals_handled_total{kind="touched"}'));
    return Number(line?.split(' ').at(-1));
  }

  /**
   * Makes a write and waits until `other` has heard its invalidation (PostgreSQL hands it to
   * every listener at the commit; the write does not wait for the other process to act).
   */
  async function writeHeardBy<T>(other: ServerProcess, write: () => Promise<T>): Promise<T> {
    const before = await invalidationsHeard(other);
    const result = await write();
    await until(async () => (await invalidationsHeard(other)) > before, 10_000);
    expect(await invalidationsHeard(other)).toBeGreaterThan(before);
    return result;
  }

  const newest = async (server: ServerProcess, client: Client) =>
    (await call(server, 'GET', '/getQuestion?order=newest&page=1', client.cookie)).json() as QuestionSummary[];
  const page = async (server: ServerProcess, client: Client, qid: string) =>
    (await call(server, 'GET', `/getQuestionById/${qid}`, client.cookie)).json() as Question;

  it('serves an image uploaded on one process from the other, and the other embeds it in a post', async () => {
    const alice = await register(one);
    const form = new FormData();
    const png = await sharp({ create: { width: 50, height: 30, channels: 3, background: '#208040' } })
      .png()
      .toBuffer();
    form.append('file', new Blob([png], { type: 'image/png' }), 'shared.png');
    const uploaded = await fetch(`${one.url}/api/uploads`, {
      method: 'POST',
      headers: { cookie: alice.cookie },
      body: form,
    });
    expect(uploaded.status).toBe(200);
    const image = (await uploaded.json()) as { url: string; width: number; height: number };
    const served = await fetch(`${two.url}${image.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const asked = await call(two, 'POST', '/addQuestion', alice.cookie, {
      title: 'A picture from the other process',
      text: `![a green box](${image.url})`,
      tags: [{ name: 'cluster', description: '' }],
      askedBy: alice.username,
    });
    expect(asked.status).toBe(200);
    const question = await page(one, alice, (asked.json() as { _id: string })._id);
    expect(question.images).toEqual([image]);
  });

  it('accepts a session made on one process on the other', async () => {
    const alice = await register(one);
    const me = await call(two, 'GET', '/account/me', alice.cookie);
    expect(me.status).toBe(200);
    expect(me.json()).toMatchObject({ username: alice.username });
  });

  it('carries every event type from the process that wrote to sockets on the other', async () => {
    const alice = await register(one);
    const bob = await register(two);
    const aliceOnTwo = await socketOn(two, alice);
    const bobOnOne = await socketOn(one, bob);
    const visitorOnTwo = await socketOn(two, null);

    // questionUpdate: asked on one, heard on two.
    let heard = nextEvent<QuestionSummary>(aliceOnTwo, SOCKET_EVENTS.questionUpdate);
    const asked = await call(one, 'POST', '/addQuestion', alice.cookie, {
      title: 'Crossing processes',
      text: 'Does it arrive?',
      tags: [{ name: 'cluster', description: '' }],
    });
    expect(asked.status).toBe(200);
    const qid = (asked.json() as Question)._id;
    expect((await heard)._id).toBe(qid);
    // The other events reach the sockets that show the question, as the web app's page and list say.
    await Promise.all([showQuestions(aliceOnTwo, [qid]), showQuestions(bobOnOne, [qid])]);

    // answerUpdate: answered on two, heard on one.
    const answerHeard = nextEvent<{ qid: string }>(bobOnOne, SOCKET_EVENTS.answerUpdate);
    const answered = await call(two, 'POST', '/answer/addAnswer', bob.cookie, { qid, ans: { text: 'Yes.' } });
    expect(answered.status).toBe(200);
    expect((await answerHeard).qid).toBe(qid);

    // commentUpdate, voteUpdate and viewsUpdate: written on one, heard on two.
    const commentHeard = nextEvent<{ result: { qid: string } }>(aliceOnTwo, SOCKET_EVENTS.commentUpdate);
    expect(
      (
        await call(one, 'POST', '/comment/addComment', alice.cookie, {
          id: qid,
          type: 'question',
          comment: { text: 'Hm' },
        })
      ).status,
    ).toBe(200);
    expect((await commentHeard).result.qid).toBe(qid);

    const voteHeard = nextEvent<{ qid: string; upVotes: string[] }>(aliceOnTwo, SOCKET_EVENTS.voteUpdate);
    expect((await call(one, 'POST', '/upvoteQuestion', alice.cookie, { qid })).status).toBe(200);
    expect(await voteHeard).toMatchObject({ qid, upVotes: [alice.username] });

    const viewsHeard = nextEvent<{ qid: string; views: string[] }>(aliceOnTwo, SOCKET_EVENTS.viewsUpdate);
    expect((await call(one, 'GET', `/getQuestionById/${qid}`, bob.cookie)).status).toBe(200);
    expect(await viewsHeard).toMatchObject({ qid, views: [bob.username] });

    // threadUpdate and messageUpdate: a direct thread started on two reaches bob on one.
    heard = nextEvent(bobOnOne, SOCKET_EVENTS.threadUpdate);
    const thread = await call(two, 'POST', '/thread/addThread', alice.cookie, {
      accounts: [alice.username, bob.username],
    });
    expect(thread.status).toBe(200);
    await heard;
    const tid = (thread.json() as { _id: string })._id;
    const messageHeard = nextEvent<{ message: { msg: string } }>(bobOnOne, SOCKET_EVENTS.messageUpdate);
    expect(
      (await call(two, 'POST', '/message/addMessage', alice.cookie, { tid, msg: { content: 'Hi Bob' } })).status,
    ).toBe(200);
    expect(JSON.stringify(await messageHeard)).toContain('Hi Bob');

    // forumUpdate: made on one, heard on two.
    const forumHeard = nextEvent<{ name: string }>(aliceOnTwo, SOCKET_EVENTS.forumUpdate);
    const forumName = uniqueName('forum').slice(0, 20);
    expect(
      (await call(one, 'POST', '/forum/addForum', bob.cookie, { name: forumName, description: 'Talk' })).status,
    ).toBe(200);
    expect((await forumHeard).name).toBe(forumName);

    // PorpChat: an anonymous visitor's message on one reaches a visitor on two.
    const chatHeard = nextEvent(visitorOnTwo, SOCKET_EVENTS.messageUpdate);
    expect(
      (
        await call(one, 'POST', '/message/addMessage', null, {
          tid: 'porpchat',
          msg: { content: 'Ahoy', sender: 'Visitor' },
        })
      ).status,
    ).toBe(200);
    expect(JSON.stringify(await chatHeard)).toContain('Ahoy');
  });

  it('shows a write made on one process in the next read on the other once it heard the write, though that read was cached', async () => {
    const alice = await register(one);
    const bob = await register(two);
    const qid = (
      (
        await call(one, 'POST', '/addQuestion', alice.cookie, {
          title: 'Cached elsewhere',
          text: 'Body',
          tags: [{ name: 'cache', description: '' }],
        })
      ).json() as Question
    )._id;
    // Both reads are now cached on two.
    expect((await newest(two, bob))[0]?._id).toBe(qid);
    expect((await page(two, bob, qid)).answers).toHaveLength(0);
    expect((await newest(two, bob))[0]?.answerCount).toBe(0);

    for (let i = 1; i <= 5; i++) {
      const answered = await writeHeardBy(two, () =>
        call(one, 'POST', '/answer/addAnswer', alice.cookie, { qid, ans: { text: `Answer ${i}` } }),
      );
      expect(answered.status).toBe(200);
      // No retry: the next read on the other process, once it heard the write, has it.
      expect((await page(two, bob, qid)).answers).toHaveLength(i);
      expect((await newest(two, bob))[0]?.answerCount).toBe(i);
    }

    // A comment, a vote: the next read on the other process has each.
    const commented = await writeHeardBy(two, () =>
      call(one, 'POST', '/comment/addComment', alice.cookie, { id: qid, type: 'question', comment: { text: 'Hi' } }),
    );
    expect(commented.status).toBe(200);
    expect((await page(two, bob, qid)).comments.map((comment) => comment.text)).toEqual(['Hi']);
    const voted = await writeHeardBy(two, () => call(one, 'POST', '/upvoteQuestion', alice.cookie, { qid }));
    expect(voted.status).toBe(200);
    expect((await page(two, bob, qid)).upVotes).toEqual([alice.username]);
    expect((await newest(two, bob))[0]?.voteCount).toBe(1);

    // A first view on one: two's cached page and list count it within a second (views are
    // counters: they drop no cached page, and their counts may lag that much).
    const carol = await register(one);
    const before = (await page(two, bob, qid)).viewCount;
    expect((await page(one, carol, qid)).viewCount).toBe(before + 1);
    const counted = async () =>
      (await page(two, bob, qid)).viewCount === before + 1 && (await newest(two, bob))[0]?.viewCount === before + 1;
    const deadline = Date.now() + 5_000;
    while (!(await counted()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await counted()).toBe(true);

    const next = await writeHeardBy(two, () =>
      call(one, 'POST', '/addQuestion', alice.cookie, {
        title: 'Newer still',
        text: 'Body',
        tags: [{ name: 'cache', description: '' }],
      }),
    );
    expect((await newest(two, bob))[0]?._id).toBe((next.json() as Question)._id);
  });

  it('ends a session on every process when it signs out on one', async () => {
    const carol = await register(one);
    // The session is now remembered by both processes.
    expect((await call(one, 'GET', '/account/me', carol.cookie)).status).toBe(200);
    expect((await call(two, 'GET', '/account/me', carol.cookie)).status).toBe(200);
    const carolOnTwo = await socketOn(two, carol);
    const dropped = new Promise<void>((resolve) => carolOnTwo.once('disconnect', () => resolve()));

    expect((await call(one, 'POST', '/account/logout', carol.cookie, {})).status).toBe(200);
    expect((await call(two, 'GET', '/account/me', carol.cookie)).status).toBe(401);
    expect((await call(two, 'GET', '/getQuestion?order=newest&page=1', carol.cookie)).status).toBe(401);
    await dropped;
  });
});

describe('WORKERS=N (npm run start:cluster)', () => {
  it('runs N server processes behind one port on PostgreSQL', async () => {
    const database = await createPostgresDatabase();
    const cluster = await startServerProcess({ DATABASE_URL: database.url, WORKERS: '2' });
    try {
      const workers = () =>
        execFileSync('pgrep', ['-P', String(cluster.child.pid)], { encoding: 'utf8' })
          .trim()
          .split('\n');
      await expect.poll(workers, { timeout: 30_000 }).toHaveLength(2);
      // Connections land on either process; every one of them serves sessions and sockets.
      const { cookie } = await register(cluster);
      for (let i = 0; i < 6; i++) {
        const me = await fetch(`${cluster.url}/api/account/me`, { headers: { cookie, connection: 'close' } });
        expect(me.status).toBe(200);
      }
      const socket = openSocket(cluster.url, { cookie });
      try {
        await connected(socket);
      } finally {
        socket.disconnect();
      }
    } finally {
      cluster.child.kill('SIGTERM');
      expect(await cluster.exited).toBe(0);
      await database.drop();
    }
  }, 120_000);

  it('refuses to run several processes on the embedded database', async () => {
    await expect(startServerProcess({ DATABASE_URL: '', WORKERS: '2' })).rejects.toThrow(
      'Several server processes need PostgreSQL: set DATABASE_URL',
    );
  });
});
