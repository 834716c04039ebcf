import { LIMITS, type Notification, type NotificationKind } from '@porpoise/core';
import { markdownPlainText } from '@porpoise/core/markdown';
import type { NotificationRow } from '../queries/notifications.ts';

/** At most LIMITS.notificationSnippetMax characters of a one-line text, cut at a word where it can be. */
function excerpt(text: string): string {
  if (text.length <= LIMITS.notificationSnippetMax) return text;
  const cut = text.slice(0, LIMITS.notificationSnippetMax - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > LIMITS.notificationSnippetMax / 2 ? cut.slice(0, space) : cut}…`;
}

/** A notification's snippet: its post's text as a reader sees it, cut; else its title. */
function snippetOf(row: NotificationRow): string {
  const text = row.postText === null ? '' : markdownPlainText(row.postText, row.inline ? 'inline' : 'block');
  return excerpt(text) || row.title || 'Direct message';
}

/**
 * Notifications as presentNotification presents them, each post's snippet made once: the
 * followers of a question told of one answer all get the same one (one Markdown reading).
 */
export function presentNotifications(rows: readonly NotificationRow[]): Notification[] {
  const snippets = new Map<string, string>();
  return rows.map((row) => {
    const key = `${row.inline ? 'i' : 'b'}${row.title ?? ''}\u0000${row.postText ?? ''}`;
    let snippet = snippets.get(key);
    if (snippet === undefined) {
      snippet = snippetOf(row);
      snippets.set(key, snippet);
    }
    return presentNotification(row, snippet);
  });
}

/**
 * A notification as its owner's inbox lists it (docs/product.md section 11): the snippet is
 * the post's text as a reader sees it, or its question's title (or forum's name) when the
 * post is the question or shows no text.
 */
export function presentNotification(row: NotificationRow, snippet = snippetOf(row)): Notification {
  return {
    _id: String(row.id),
    kind: row.kind as NotificationKind,
    actor: row.actor,
    qid: row.questionId === null ? null : String(row.questionId),
    aid: row.answerId === null ? null : String(row.answerId),
    tid: row.threadId === null ? null : String(row.threadId),
    snippet,
    createdAt: row.createdAt.toISOString(),
    read: row.read,
  };
}
