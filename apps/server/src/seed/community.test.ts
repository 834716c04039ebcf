import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../db/client.ts';
import { createTestDatabase, DATABASE_KINDS } from '../test/databases.ts';
import { DEMO_SIZE, seedCommunity } from './community.ts';

// The seed writes questions in bulk, beside addQuestion: its search vectors must be the same.
describe.each(DATABASE_KINDS)('the seeded community on %s', (kind) => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    await seedCommunity(database.db, { ...DEMO_SIZE, questions: 60 }, { prefix: 'seeded', password: 'seed-password' });
  }, 60_000);
  afterAll(async () => database.close());

  it("gives every question its words and its tags' lexemes", async () => {
    const [row] = await queryRows<{ questions: number; differing: number }>(
      database.db,
      sql`select count(*)::int as questions,
        count(*) filter (where q.search <> to_tsvector('simple', q.title || ' ' || q.text) || array_to_tsvector(
          array(select '[t' || qt.tag_id || ']' from question_tags qt where qt.question_id = q.id)))::int as differing
        from questions q`,
    );
    expect(row?.questions).toBe(60);
    expect(row?.differing).toBe(0);
    const [tagged] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from questions q where exists (
        select 1 from question_tags qt where qt.question_id = q.id
          and tsvector_to_array(q.search) @> array['[t' || qt.tag_id || ']'])`,
    );
    expect(tagged?.n).toBe(60);
  });
});
