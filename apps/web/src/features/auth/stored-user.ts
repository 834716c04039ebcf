import { removeStorage, writeStorage } from '@/lib/storage';

/** The spec's "stored user entry" in local storage (section 3). */
const STORED_USER_KEY = 'user';

export interface StoredUser {
  username: string;
}

export function storeUser(user: StoredUser): void {
  writeStorage('local', STORED_USER_KEY, JSON.stringify({ username: user.username }));
}

export function clearStoredUser(): void {
  removeStorage('local', STORED_USER_KEY);
}
