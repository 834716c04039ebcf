/**
 * `@porpoise/core/markdown`: Markdown for posts, comments and messages (docs/product.md
 * section 8), and the two text rules that need it. A separate entry point, so the parser
 * is in no bundle that does not show or check Markdown (the /home list's first download).
 */
import { LIMITS } from '../limits.ts';
import { MESSAGES } from '../messages.ts';
import { commentTextError, messageError, postTextError, type Rule } from '../validation.ts';
import { markdownTextError } from './parse.ts';

export * from './tree.ts';
export * from './languages.ts';
export {
  embeddedImageNames,
  markdownLinksValid,
  markdownPlainText,
  markdownTextError,
  mentionedUsernames,
  parseMarkdown,
} from './parse.ts';

export const questionTextError = postTextError(
  MESSAGES.questionTextEmpty,
  'Question text',
  LIMITS.questionTextMax,
  markdownTextError,
);
export const answerTextError = postTextError(
  MESSAGES.answerTextEmpty,
  'Answer text',
  LIMITS.answerTextMax,
  markdownTextError,
);

/**
 * Comments and messages take inline Markdown, and the link rule holds for every link
 * (docs/product.md section 8): the field's own rule, then its links.
 */
const withInlineLinks =
  (rule: Rule): Rule =>
  (value) =>
    rule(value) ?? markdownTextError(value, 'inline');
export const commentMarkdownError = withInlineLinks(commentTextError);
export const messageMarkdownError = withInlineLinks(messageError);
