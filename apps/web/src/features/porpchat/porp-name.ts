import { readStorage, writeStorage } from '@/lib/storage';

/** PorpChat's anonymous name lives for the browser tab only (session storage). */
const PORP_NAME_KEY = 'porpUsername';

export function readPorpName(): string | null {
  const name = readStorage('session', PORP_NAME_KEY)?.trim() ?? '';
  return name === '' ? null : name;
}

export function storePorpName(name: string): void {
  writeStorage('session', PORP_NAME_KEY, name.trim());
}
