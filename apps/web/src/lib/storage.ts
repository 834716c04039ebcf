/**
 * Web Storage that never throws: browsers with storage disabled (or full) throw on
 * access, and losing a remembered value must not break signing in or chatting.
 */
type StorageKind = 'local' | 'session';

function storageOf(kind: StorageKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

export function readStorage(kind: StorageKind, key: string): string | null {
  try {
    return storageOf(kind)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(kind: StorageKind, key: string, value: string): void {
  try {
    storageOf(kind)?.setItem(key, value);
  } catch (error) {
    console.warn(`Could not store ${key}:`, error);
  }
}

export function removeStorage(kind: StorageKind, key: string): void {
  try {
    storageOf(kind)?.removeItem(key);
  } catch (error) {
    console.warn(`Could not remove ${key}:`, error);
  }
}
