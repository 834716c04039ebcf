import { MESSAGES, type FlagTarget } from '@porpoise/core';

/** An error with the status and `{error}` text the client should receive. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = () => new HttpError(401, MESSAGES.notSignedIn);
export const forbidden = (message: string = MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

const NOT_FOUND: Record<FlagTarget, string> = {
  question: MESSAGES.questionNotFound,
  answer: MESSAGES.answerNotFound,
  comment: MESSAGES.commentNotFound,
  message: MESSAGES.messageNotFound,
};

/** A post or message that is not there, or not there for this reader (docs/product.md section 9): 404. */
export const postNotFound = (kind: FlagTarget) => notFound(NOT_FOUND[kind]);
