/**
 * Validation rules and their exact messages (spec section 5, docs/product.md sections 2-4).
 * Each rule is a function returning the message or null; the forms call them directly
 * and the server's zod schemas (schemas.ts) are built from the same functions.
 */
import { LIMITS } from './limits.ts';
import { MESSAGES, tooLongMessage } from './messages.ts';

export const USERNAME_PATTERN = /^[A-Za-z0-9._-]{3,30}$/;
/** One character of JavaScript's `\s` class. */
const WHITESPACE = /\s/;

/**
 * What /^[^\s@]+@[^\s@]+\.[^\s@]+$/ accepts, checked without it (its two overlapping
 * runs around the dot backtrack): no whitespace, one `@` with text before it, and a dot
 * in the domain with text on both sides.
 */
function looksLikeEmail(email: string): boolean {
  if (WHITESPACE.test(email)) return false;
  const at = email.indexOf('@');
  if (at < 1 || email.indexOf('@', at + 1) >= 0) return false;
  const domain = email.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot >= 1 && dot < domain.length - 1;
}

export type Rule<T = string> = (value: T) => string | null;

/** Length in user-perceived code points, so an emoji counts once. */
export const charLength = (value: string) => [...value].length;

const maxLength =
  (field: string, max: number): Rule =>
  (value) =>
    charLength(value) > max ? tooLongMessage(field, max) : null;

export const usernameError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.usernameRequired;
  return USERNAME_PATTERN.test(value) ? null : MESSAGES.usernameFormat;
};

export const emailError: Rule = (value) => {
  const email = value.trim();
  if (email === '') return MESSAGES.emailRequired;
  return email.length <= LIMITS.emailMax && looksLikeEmail(email) ? null : MESSAGES.emailInvalid;
};

export const passwordError: Rule = (value) => {
  if (value === '') return MESSAGES.passwordRequired;
  if (charLength(value) < LIMITS.passwordMin) return MESSAGES.passwordTooShort;
  if (charLength(value) > LIMITS.passwordMax) return MESSAGES.passwordTooLong;
  return null;
};

export const titleError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.titleEmpty;
  return charLength(value) > LIMITS.titleMax ? MESSAGES.titleTooLong : null;
};

/**
 * A question's or answer's text: not empty, not too long, and every link by the spec's
 * rule. The links are read by the Markdown parser, so the two rules are made in
 * `@porpoise/core/markdown` (questionTextError, answerTextError), which keeps the parser
 * out of every bundle that only needs the other rules.
 */
export const postTextError =
  (emptyMessage: string, field: string, max: number, markdownError: Rule): Rule =>
  (value) => {
    if (value.trim() === '') return emptyMessage;
    if (charLength(value) > max) return tooLongMessage(field, max);
    return markdownError(value);
  };

/** An edit's reason is optional; only its length is ruled. */
export const editReasonError: Rule = (value) =>
  charLength(value) > LIMITS.editReasonMax ? MESSAGES.reasonTooLong : null;

/** A flag's optional note (docs/product.md section 10). */
export const flagNoteError: Rule = (value) =>
  charLength(value) > LIMITS.flagNoteMax ? tooLongMessage('Note', LIMITS.flagNoteMax) : null;

/** An adjustment's reason: required, kept as the ledger row's note and in the moderation log. */
export const adjustmentReasonError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.adjustmentReasonEmpty;
  return charLength(value) > LIMITS.reputationNoteMax ? tooLongMessage('Reason', LIMITS.reputationNoteMax) : null;
};

/** A suspension's reason: required, as the member is shown it when signing in. */
export const suspensionReasonError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.suspensionReasonEmpty;
  return charLength(value) > LIMITS.suspensionReasonMax ? tooLongMessage('Reason', LIMITS.suspensionReasonMax) : null;
};

/**
 * The suspension form's 'Days' field: a whole number of days from 1 to
 * LIMITS.suspensionDaysMax, required (for good is its own checkbox: docs/product.md section 5).
 * Answers the days or the message.
 */
export function parseSuspensionDays(typed: string): { days: number } | { error: string } {
  const trimmed = typed.trim();
  if (trimmed === '') return { error: MESSAGES.suspensionDaysRequired };
  if (trimmed.length > 4 || ![...trimmed].every((c) => c >= '0' && c <= '9')) return { error: MESSAGES.suspensionDays };
  const days = Number(trimmed);
  return days >= 1 && days <= LIMITS.suspensionDaysMax ? { days } : { error: MESSAGES.suspensionDays };
}

/** Splits the Tags field on whitespace, lower-cased, duplicates dropped. */
export function parseTagNames(input: string): string[] {
  return [
    ...new Set(
      input
        .split(/\s+/)
        .filter(Boolean)
        .map((name) => name.toLowerCase()),
    ),
  ];
}

export const tagNamesError: Rule<string[]> = (names) => {
  if (names.length < LIMITS.tagsMin) return MESSAGES.tagsTooFew;
  if (names.length > LIMITS.tagsMax) return MESSAGES.tagsTooMany;
  return names.some((name) => charLength(name) > LIMITS.tagNameMax) ? MESSAGES.tagTooLong : null;
};

export const commentTextError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.commentEmpty;
  return maxLength('Comment', LIMITS.commentMax)(value);
};

export const bioError: Rule = maxLength('Bio', LIMITS.bioMax);

export const recipientError: Rule = (value) => (value.trim() === '' ? MESSAGES.recipientEmpty : null);

export const forumNameError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.forumNameEmpty;
  return maxLength('Name', LIMITS.forumNameMax)(value);
};

export const forumDescriptionError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.forumDescriptionEmpty;
  return maxLength('Description', LIMITS.forumDescriptionMax)(value);
};

/** A blank message is simply not sent; the server refuses it with this text. */
export const messageError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.messageEmpty;
  return maxLength('Message', LIMITS.messageMax)(value);
};

export const porpNameError: Rule = (value) => {
  if (value.trim() === '') return MESSAGES.porpNameRequired;
  return maxLength('Username', LIMITS.porpNameMax)(value.trim());
};
