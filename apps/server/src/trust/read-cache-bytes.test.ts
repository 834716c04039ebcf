// Issue 23 item 4: the read caches are bounded in bytes. They were bounded only in entries
// (5,000 question pages), so a few members' 24 MB pages could fill the server's memory;
// now they hold at most READ_CACHE_MB, and a page over READ_CACHE_ENTRY_KB is answered
// but not kept.
import type { Question } from '@porpoise/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../test/databases.ts';
import { answerQuestion, askQuestion, registerUser, type TestUser } from '../test/factories.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

const MAX_BYTES = 256 * 1024;
const MAX_ENTRY_BYTES = 64 * 1024;
/** The question pages' share of the budget (the lists have a quarter). */
const QUESTION_BYTES = MAX_BYTES - MAX_BYTES / 4;

describe.each(DATABASE_KINDS)('read cache bytes on %s', (kind) => {
  let t: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind, {
      configure: (config) => {
        config.readCache = { maxBytes: MAX_BYTES, maxEntryBytes: MAX_ENTRY_BYTES };
      },
    });
    user = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const read = async (qid: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/getQuestionById/${qid}`,
      headers: { cookie: user.cookie },
    });
    expect(response.statusCode).toBe(200);
    return response.json<Question>();
  };

  it('never holds more question pages than its byte budget', async () => {
    // Twelve pages of ~20 KB each (JSON, gzip and rows: ~41 KB in the cache): ~490 KB in all.
    const qids: string[] = [];
    for (let i = 0; i < 12; i += 1) qids.push(await askQuestion(t.app, user, { text: `${i} ${'x'.repeat(20_000)}` }));
    for (const qid of qids) await read(qid); // first views: writes, which clear the cache
    const { questions } = t.app.contentCache;
    const loadsBefore = questions.loads;
    for (const qid of qids) {
      expect((await read(qid)).text).toHaveLength(20_000 + String(qids.indexOf(qid)).length + 1);
      expect(questions.bytes).toBeGreaterThan(0);
      expect(questions.bytes).toBeLessThanOrEqual(QUESTION_BYTES);
    }
    expect(questions.loads).toBe(loadsBefore + qids.length);
    expect(questions.size).toBeLessThan(qids.length);
    // The newest pages are the ones kept.
    await read(qids.at(-1) as string);
    expect(questions.loads).toBe(loadsBefore + qids.length);
  });

  it('answers a page larger than the largest entry without keeping it', async () => {
    const qid = await askQuestion(t.app, user, { text: 'y'.repeat(30_000) });
    await answerQuestion(t.app, user, qid, 'z'.repeat(30_000));
    await answerQuestion(t.app, user, qid, 'w'.repeat(30_000));
    await read(qid); // the first view
    const { questions } = t.app.contentCache;
    const loadsBefore = questions.loads;
    const bytesBefore = questions.bytes;
    expect((await read(qid)).answers).toHaveLength(2);
    expect((await read(qid)).answers).toHaveLength(2);
    expect(questions.loads).toBe(loadsBefore + 2);
    expect(questions.bytes).toBe(bytesBefore);
  });
});
