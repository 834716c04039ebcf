import { PORPCHAT_THREAD_ID } from '@porpoise/core';
import { paths } from '@/config/paths';

/** Where an item is: its question's page, PorpChat, or its forum's thread. */
export const placeOf = (item: { questionId: string | null; threadId: string | null }) => {
  if (item.questionId !== null) return paths.question(item.questionId);
  return item.threadId === PORPCHAT_THREAD_ID ? paths.porpchat() : paths.thread(item.threadId ?? '');
};
