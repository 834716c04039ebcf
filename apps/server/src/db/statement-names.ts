import { createHash } from 'node:crypto';

/** Statement names by text: hashed once per shape, not on every call. */
const names = new Map<string, string>();

/**
 * The name queryPrepared gives a statement's text: its hash, so one name always stands for
 * one text. Its statements take a few dozen shapes, each named once.
 */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `p_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    names.set(text, name);
  }
  return name;
}

/** The name of a text queryPrepared has run, if it has: the embedded database's thread runs it prepared too. */
export const preparedName = (text: string): string | undefined => names.get(text);
