/**
 * Live announcements (docs/product.md section 12): what arrives live on the open page, read
 * out by screen readers through the one polite live region index.html holds from page load
 * (#live-announcer). Announcements are gathered for a second and then said as one sentence
 * per kind ('3 new answers'), so a busy page does not chatter (a steady stream is gathered
 * for two seconds at a time); focus never moves. Silent while the body has
 * `announcements-off` (the account's 'Live announcements' is Off). What was gathered on a
 * page is dropped when the reader leaves it (`cancelAnnouncements`); while a modal dialog is
 * open, which makes the region inert, it waits for the dialog to close.
 */

/** An answer or message names its author; a notification and a status are whole sentences. */
export type AnnouncementKind = 'answer' | 'message' | 'notification' | 'status';

/** How long announcements gather before they are said together (well within the 3 s allowed). */
export const ANNOUNCE_GATHER_MS = 1000;
/** The gathering right after a sentence was said: a steady stream is read every few seconds, not every one. */
export const ANNOUNCE_STREAM_MS = 2000;
/** The region is emptied, then filled this much later, so the same sentence twice is read twice. */
export const ANNOUNCE_REFILL_MS = 100;

/** The sentence for one announcement, and for several of a kind. */
const SENTENCES: Record<AnnouncementKind, { one: (text: string) => string; many: (texts: string[]) => string }> = {
  answer: { one: (username) => `New answer by ${username}`, many: (texts) => `${texts.length} new answers` },
  message: { one: (username) => `New message from ${username}`, many: (texts) => `${texts.length} new messages` },
  notification: { one: (text) => text, many: (texts) => `${texts.length} new notifications` },
  // A page's status (a search's count of questions): only the latest is still true.
  status: { one: (text) => text, many: (texts) => texts.at(-1)! },
};

const ORDER: AnnouncementKind[] = ['answer', 'message', 'notification', 'status'];
const gathered = new Map<AnnouncementKind, string[]>();
let timer: ReturnType<typeof setTimeout> | null = null;
let refill: ReturnType<typeof setTimeout> | null = null;
/** When the last sentence was said (ms, performance.now). */
let lastSaid = Number.NEGATIVE_INFINITY;

const region = () => document.getElementById('live-announcer');
const silenced = () => document.body.classList.contains('announcements-off');
/** An open modal dialog: everything outside it, the region included, is inert until it closes. */
const openModal = () => document.querySelector<HTMLDialogElement>('dialog:modal');

/** What the gathered announcements say, one sentence per kind, in a fixed order. */
export function announcementText(items: ReadonlyMap<AnnouncementKind, readonly string[]>): string {
  return ORDER.flatMap((kind) => {
    const texts = items.get(kind) ?? [];
    if (texts.length === 0) return [];
    return [texts.length === 1 ? SENTENCES[kind].one(texts[0]!) : SENTENCES[kind].many([...texts])];
  }).join('. ');
}

function flush(): void {
  timer = null;
  const modal = openModal();
  if (modal !== null) {
    // Said once the dialog closes (the reader hears it then, back on the page).
    modal.addEventListener('close', () => (timer ??= setTimeout(flush, 0)), { once: true });
    return;
  }
  const text = announcementText(gathered);
  gathered.clear();
  const live = region();
  if (live === null || text === '' || silenced()) return;
  lastSaid = performance.now();
  // A timer, not a frame: frames wait while the tab is hidden.
  live.textContent = '';
  if (refill !== null) clearTimeout(refill);
  refill = setTimeout(() => {
    refill = null;
    if (!silenced()) live.textContent = text;
  }, ANNOUNCE_REFILL_MS);
}

/**
 * Announces something that arrived live: `text` is the username for an answer or a message,
 * the whole sentence for a notification or a status.
 */
export function announce(kind: AnnouncementKind, text: string): void {
  if (silenced()) return;
  gathered.set(kind, [...(gathered.get(kind) ?? []), text]);
  const streaming = performance.now() - lastSaid < ANNOUNCE_STREAM_MS;
  timer ??= setTimeout(flush, streaming ? ANNOUNCE_STREAM_MS : ANNOUNCE_GATHER_MS);
}

/** How far this browser's clock may be ahead of the server's and still hear what is new. */
const CLOCK_SKEW_MS = 2 * 60_000;

/**
 * Whether a post written at `writtenAt` (the server's time) is new since a page opened at
 * `openedAt` (Date.now() then): an old post shown again (undeleted, approved) is no news.
 */
export const writtenSince = (writtenAt: string, openedAt: number): boolean =>
  Date.parse(writtenAt) >= openedAt - CLOCK_SKEW_MS;

/** Drops what was gathered and not yet said (the reader has left the page it was about). */
export function cancelAnnouncements(): void {
  gathered.clear();
  if (timer !== null) clearTimeout(timer);
  if (refill !== null) clearTimeout(refill);
  timer = null;
  refill = null;
  lastSaid = Number.NEGATIVE_INFINITY;
  const live = region();
  if (live !== null) live.textContent = '';
}
