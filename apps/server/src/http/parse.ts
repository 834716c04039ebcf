import { firstIssue, type z } from '@porpoise/core/schemas';
import { badRequest } from './http-error.ts';

/** True when every string inside is text PostgreSQL can store: no NUL, no lone surrogate. */
function isStorable(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return !value.includes('\u0000') && value.isWellFormed();
  if (depth > 20 || value === null || typeof value !== 'object') return true;
  return Object.entries(value).every(([key, item]) => isStorable(key, depth + 1) && isStorable(item, depth + 1));
}

/**
 * Parses untrusted input (body, query or params) with a core schema; a failure is a 400
 * with the rule's own message. Text the database cannot hold is refused before any rule.
 */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  if (!isStorable(input)) throw badRequest('The request contains characters that are not allowed');
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(firstIssue(result.error));
  return result.data;
}
