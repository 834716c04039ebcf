import { readStorage, writeStorage } from '@/lib/storage';

/**
 * The ids of the PorpChat messages this browser tab posted (session storage, like the
 * name). 'Mine' in PorpChat means sent from here, not sent under the same typed name:
 * two visitors may type the same name, and nothing but the name travels with a message.
 */
const SENT_KEY = 'porpSentIds';
/** Enough for a long session; the oldest ids go first. */
const SENT_MAX = 1_000;

function storedIds(): string[] {
  try {
    const parsed: unknown = JSON.parse(readStorage('session', SENT_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function readSentIds(): ReadonlySet<string> {
  return new Set(storedIds());
}

/** Remembers one more posted id and returns the whole set. */
export function rememberSentId(id: string): ReadonlySet<string> {
  const ids = [...storedIds().filter((known) => known !== id), id].slice(-SENT_MAX);
  writeStorage('session', SENT_KEY, JSON.stringify(ids));
  return new Set(ids);
}
