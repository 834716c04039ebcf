import type { Db } from '../db/client.ts';

/**
 * The statements `db` is asked to run while `during` runs, whichever way they are sent
 * (raw SQL, prepared by name, or built with Drizzle: each goes through the session's
 * prepareQuery). Statements inside a transaction run on the transaction's own session and
 * are not seen: for counting what a read costs.
 */
export async function statementsDuring(db: Db, during: () => Promise<void>): Promise<string[]> {
  const session = db._.session;
  const prepare = session.prepareQuery.bind(session);
  const seen: string[] = [];
  session.prepareQuery = (query, ...rest) => {
    seen.push(query.sql);
    return prepare(query, ...rest);
  };
  try {
    await during();
  } finally {
    // The class's own method again (the wrapper was the session's own property).
    Reflect.deleteProperty(session, 'prepareQuery');
  }
  return seen;
}
