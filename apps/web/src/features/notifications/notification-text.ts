import type { Notification, NotificationKind } from '@porpoise/core';
import { paths } from '@/config/paths';

/** What the actor did, after their name (docs/product.md section 11). */
export const NOTIFICATION_VERBS: Record<NotificationKind, string> = {
  answer: 'answered your question',
  comment: 'commented on your post',
  accept: 'accepted your answer',
  mention: 'mentioned you',
  followedAnswer: 'answered a question you follow',
};

/** Where opening a notification goes: its question, else the thread of a forum mention, else the actor's profile. */
export function notificationTarget(notification: Notification): string {
  if (notification.qid !== null) return paths.question(notification.qid);
  if (notification.tid !== null) return paths.thread(notification.tid);
  return paths.userProfile(notification.actor);
}
