import { firstIssue, type z } from '@porpoise/core/schemas';
import { badRequest } from './http-error.ts';

/** Parses untrusted input with a core schema; a failure is a 400 with the rule's own message. */
export function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (!result.success) throw badRequest(firstIssue(result.error));
  return result.data;
}
