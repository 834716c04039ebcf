import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  announce,
  ANNOUNCE_GATHER_MS,
  ANNOUNCE_REFILL_MS,
  ANNOUNCE_STREAM_MS,
  announcementText,
  cancelAnnouncements,
  type AnnouncementKind,
} from './announcer';

const said = (entries: [AnnouncementKind, string[]][]) => announcementText(new Map(entries));

describe('live announcements (docs/product.md section 12)', () => {
  it('one arrival is named', () => {
    expect(said([['answer', ['ann']]])).toBe('New answer by ann');
    expect(said([['message', ['bob']]])).toBe('New message from bob');
    expect(said([['notification', ['cy answered your question']]])).toBe('cy answered your question');
    expect(said([['status', ['12 questions']]])).toBe('12 questions');
  });

  it('a burst of one kind reads as one sentence, and kinds in a fixed order', () => {
    expect(said([['answer', ['ann', 'bob', 'cy']]])).toBe('3 new answers');
    expect(said([['message', ['a', 'b']]])).toBe('2 new messages');
    expect(said([['status', ['3 questions', '1 question']]])).toBe('1 question');
    expect(
      said([
        ['notification', ['x', 'y']],
        ['answer', ['ann']],
      ]),
    ).toBe('New answer by ann. 2 new notifications');
    expect(said([])).toBe('');
  });
});

/** A page with the live region, as index.html has it, and an optional open modal dialog. */
function fakePage() {
  const region = { textContent: '' };
  const classes = new Set<string>();
  const history: string[] = [];
  let modal: { listeners: Array<() => void>; addEventListener: (type: string, listener: () => void) => void } | null =
    null;
  vi.stubGlobal('document', {
    body: { classList: { contains: (name: string) => classes.has(name) } },
    getElementById: (id: string) => (id === 'live-announcer' ? region : null),
    querySelector: (selector: string) => (selector === 'dialog:modal' ? modal : null),
  });
  return {
    /** Every text the region was filled with, in order. */
    said: () => {
      if (region.textContent !== '' && history.at(-1) !== region.textContent) history.push(region.textContent);
      return history;
    },
    region,
    silence: (on: boolean) => (on ? classes.add('announcements-off') : classes.delete('announcements-off')),
    openModal: () => {
      const listeners: Array<() => void> = [];
      modal = { listeners, addEventListener: (_type, listener) => listeners.push(listener) };
    },
    closeModal: () => {
      const closing = modal;
      modal = null;
      for (const listener of closing?.listeners ?? []) listener();
    },
  };
}

describe('the announcer in time', () => {
  let page: ReturnType<typeof fakePage>;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    page = fakePage();
    cancelAnnouncements();
  });
  afterEach(() => {
    cancelAnnouncements();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Lets the gathering end and the region refill. */
  const wait = (ms: number) => vi.advanceTimersByTime(ms + ANNOUNCE_REFILL_MS);

  it('gathers what arrives within a second into one sentence, said within the 3 s allowed', () => {
    announce('answer', 'ann');
    vi.advanceTimersByTime(ANNOUNCE_GATHER_MS / 2);
    announce('answer', 'bob');
    announce('answer', 'cy');
    expect(page.said()).toEqual([]);
    wait(ANNOUNCE_GATHER_MS / 2);
    expect(page.said()).toEqual(['3 new answers']);
    expect(ANNOUNCE_GATHER_MS + ANNOUNCE_REFILL_MS).toBeLessThan(3000);
  });

  it('says the same sentence again (emptied, then refilled), and a steady stream every two seconds', () => {
    announce('answer', 'ann');
    wait(ANNOUNCE_GATHER_MS);
    expect(page.region.textContent).toBe('New answer by ann');
    announce('answer', 'ann');
    vi.advanceTimersByTime(ANNOUNCE_GATHER_MS);
    // Right after a sentence, the next one gathers longer: not said yet.
    expect(page.region.textContent).toBe('New answer by ann');
    vi.advanceTimersByTime(ANNOUNCE_STREAM_MS - ANNOUNCE_GATHER_MS);
    expect(page.region.textContent).toBe('');
    vi.advanceTimersByTime(ANNOUNCE_REFILL_MS);
    expect(page.region.textContent).toBe('New answer by ann');
  });

  it('is silent while announcements are off, even for what was gathered before', () => {
    page.silence(true);
    announce('answer', 'ann');
    wait(ANNOUNCE_GATHER_MS);
    expect(page.said()).toEqual([]);
    page.silence(false);
    announce('message', 'bob');
    vi.advanceTimersByTime(ANNOUNCE_GATHER_MS);
    page.silence(true);
    vi.advanceTimersByTime(ANNOUNCE_REFILL_MS);
    expect(page.said()).toEqual([]);
  });

  it('drops what a page gathered when the reader leaves it', () => {
    announce('answer', 'ann');
    cancelAnnouncements();
    wait(ANNOUNCE_GATHER_MS);
    expect(page.said()).toEqual([]);
  });

  it('waits for an open modal dialog to close, then says it', () => {
    page.openModal();
    announce('notification', 'cy answered your question');
    wait(ANNOUNCE_GATHER_MS);
    expect(page.said()).toEqual([]);
    page.closeModal();
    wait(0);
    expect(page.said()).toEqual(['cy answered your question']);
  });
});
