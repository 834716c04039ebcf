import type { Message, Thread } from '@porpoise/core';

/** The thread with `message` at its end, unless it is there already (it may come back twice: answer and event). */
export function withMessage(thread: Thread, message: Message): Thread {
  return thread.messages.some((known) => known._id === message._id)
    ? thread
    : { ...thread, messages: [...thread.messages, message] };
}
