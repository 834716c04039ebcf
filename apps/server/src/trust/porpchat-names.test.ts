// Trust #15 item 8: a PorpChat name that looks like a member's username is refused, with
// case, Unicode confusables (UTS #39 skeletons), zero-width and bidi characters ignored;
// the lookup goes through an index of the usernames' skeletons.
import type { Message } from '@porpoise/core';
import { nameSkeleton } from '@porpoise/core/skeleton';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import { DATABASE_KINDS } from '../test/databases.ts';
import { registerUser, type TestUser } from '../test/factories.ts';
import { snapshot } from '../test/snapshot.ts';
import { startTestApp, type TestApp } from '../test/test-app.ts';

describe.each(DATABASE_KINDS)('PorpChat names on %s', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    alice = await registerUser(t.app, { username: 'alice' });
    carol = await registerUser(t.app, { username: 'carol' });
  });
  afterAll(async () => t.close());

  const post = (user: TestUser | null, sender: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/message/addMessage',
      headers: user ? { cookie: user.cookie } : {},
      payload: { tid: 'porpchat', msg: { content: 'hello', sender } },
    });

  it.each([
    ['al\u200Bice', 'a zero-width space'],
    ['\u0430lice', 'a Cyrillic а'],
    ['ALICE', 'capitals'],
    ['a\u202Elice', 'a right-to-left override'],
    ['a1ice', 'the digit 1 for l'],
    ['\u0391LIC\u0395', 'Greek capitals'],
  ])('refuses %j (with %s) when alice is a member, storing nothing', async (name) => {
    const before = await snapshot(t.app.db);
    for (const user of [null, carol]) {
      const refused = await post(user, name);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ error: 'That name belongs to a member', code: expect.any(String) as string });
    }
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it('accepts bob, and lets alice post under a look-alike of her own name, shown as hers', async () => {
    const bob = await post(null, 'bob');
    expect(bob.statusCode).toBe(200);
    expect(bob.json<Message>().sender).toBe('bob');
    const own = await post(alice, '\u0430l\u200Bice');
    expect(own.statusCode).toBe(200);
    expect(own.json<Message>().sender).toBe('alice');
  });

  it("keeps every username's skeleton in an indexed column, equal to the one names are compared by", async () => {
    const usernames = ['ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'zyxwvutsrqponmlkjihgfedcba', '0123456789._-', 'Mil1_O0.Il'];
    for (const username of usernames) await registerUser(t.app, { username });
    const rows = await queryRows<{ username: string; skeleton: string }>(
      t.app.db,
      sql`select username, username_skeleton as skeleton from accounts order by id`,
    );
    expect(rows.map((row) => row.skeleton)).toEqual(rows.map((row) => nameSkeleton(row.username)));
    expect(rows.map((row) => row.username)).toEqual(expect.arrayContaining(usernames));

    const plan = await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<Record<string, string>>(
        tx,
        sql`explain select id from accounts where username_skeleton = ${nameSkeleton('ALICE')} limit 1`,
      );
    });
    expect(JSON.stringify(plan)).toContain('accounts_username_skeleton_idx');
  });
});
