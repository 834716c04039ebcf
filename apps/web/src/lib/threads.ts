import type { HeldFor, Message, Thread } from '@porpoise/core';

/**
 * The thread with `message` in its place (by id: a message shown again after a moderator's
 * decision goes back where it was), unless it is there already (it may come back twice:
 * answer and event). A known message that was marked hidden takes the new copy.
 */
export function withMessage(thread: Thread, message: Message): Thread {
  const known = thread.messages.findIndex((row) => row._id === message._id);
  if (known >= 0) {
    return thread.messages[known]?.deleted === true && message.deleted !== true
      ? { ...thread, messages: thread.messages.with(known, message) }
      : thread;
  }
  const after = thread.messages.findIndex((row) => Number(row._id) > Number(message._id));
  const messages =
    after < 0
      ? [...thread.messages, message]
      : [...thread.messages.slice(0, after), message, ...thread.messages.slice(after)];
  return { ...thread, messages };
}

/**
 * A message hidden (by flags, or deleted by a moderator: docs/product.md section 10): gone for
 * readers, kept marked for whoever `keeps` says may still see it (moderators, its sender).
 * Shown again, it comes back by its own messageUpdate.
 */
export function withHiddenMessage(
  thread: Thread,
  id: string,
  deleted: boolean,
  held: HeldFor | undefined,
  keeps: (message: Message) => boolean,
): Thread {
  if (!deleted || !thread.messages.some((row) => row._id === id)) return thread;
  return {
    ...thread,
    messages: thread.messages.flatMap((row) => {
      if (row._id !== id) return [row];
      return keeps(row) ? [{ ...row, deleted: true as const, ...(held === undefined ? {} : { held }) }] : [];
    }),
  };
}
