/**
 * Live announcements (docs/product.md section 12): what arrives live on the open page, read
 * out by screen readers through the one polite live region index.html holds from page load
 * (#live-announcer). Announcements are gathered for a second and then said as one sentence
 * per kind ('3 new answers'), so a busy page does not chatter; focus never moves. Silent
 * while the body has `announcements-off` (the account's 'Live announcements' is Off).
 */

export type AnnouncementKind = 'answer' | 'message' | 'notification';

/** How long announcements gather before they are said together (well within the 3 s allowed). */
export const ANNOUNCE_GATHER_MS = 1000;

/** The sentence for one announcement, and for several of a kind. */
const SENTENCES: Record<AnnouncementKind, { one: (text: string) => string; many: (count: number) => string }> = {
  answer: { one: (username) => `New answer by ${username}`, many: (count) => `${count} new answers` },
  message: { one: (username) => `New message from ${username}`, many: (count) => `${count} new messages` },
  notification: { one: (text) => text, many: (count) => `${count} new notifications` },
};

const ORDER: AnnouncementKind[] = ['answer', 'message', 'notification'];
const gathered = new Map<AnnouncementKind, string[]>();
let timer: ReturnType<typeof setTimeout> | null = null;

const region = () => document.getElementById('live-announcer');
const silenced = () => document.body.classList.contains('announcements-off');

/** What the gathered announcements say, one sentence per kind, in a fixed order. */
export function announcementText(items: ReadonlyMap<AnnouncementKind, readonly string[]>): string {
  return ORDER.flatMap((kind) => {
    const texts = items.get(kind) ?? [];
    if (texts.length === 0) return [];
    return [texts.length === 1 ? SENTENCES[kind].one(texts[0]!) : SENTENCES[kind].many(texts.length)];
  }).join('. ');
}

function flush(): void {
  timer = null;
  const text = announcementText(gathered);
  gathered.clear();
  const live = region();
  if (live === null || text === '' || silenced()) return;
  // The same sentence twice in a row is still news: the region is emptied first, and filled a
  // moment later (a timer, not a frame: frames wait while the tab is hidden).
  live.textContent = '';
  setTimeout(() => {
    live.textContent = text;
  }, 100);
}

/**
 * Announces something that arrived live: `text` is the username for an answer or a message,
 * the whole sentence for a notification.
 */
export function announce(kind: AnnouncementKind, text: string): void {
  if (silenced()) return;
  gathered.set(kind, [...(gathered.get(kind) ?? []), text]);
  timer ??= setTimeout(flush, ANNOUNCE_GATHER_MS);
}
