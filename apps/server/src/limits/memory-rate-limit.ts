import type { RateRule } from '../config.ts';

interface Window {
  count: number;
  resetAt: number;
}

/**
 * Fixed-window counters kept in this process's memory, for limits too hot to count in the
 * database (every read). At most `maxKeys` keys. Windows all last the same, so a queue of
 * them in the order they started is also the order they end: a new window first drops
 * the ended ones from its front, then, at the cap, the oldest (which only forgives that
 * key its count). Each hit costs O(1) amortised however many keys come and go.
 */
export class MemoryRateLimit {
  private readonly windows = new Map<string, Window>();
  /** Windows in the order they started; an entry whose key has a newer window is skipped. */
  private readonly started: Array<{ key: string; window: Window }> = [];
  private head = 0;

  constructor(
    private readonly rule: RateRule,
    private readonly maxKeys: number,
  ) {}

  /** Counts one hit on `key`: 0 when within the rule, else the milliseconds until its window ends. */
  hit(key: string, now = Date.now()): number {
    let window = this.windows.get(key);
    if (window === undefined || window.resetAt <= now) {
      this.windows.delete(key);
      this.dropEnded(now);
      if (this.windows.size >= this.maxKeys) this.dropOldest();
      window = { count: 0, resetAt: now + this.rule.windowMs };
      this.windows.set(key, window);
      this.started.push({ key, window });
    }
    window.count += 1;
    return window.count > this.rule.max ? window.resetAt - now : 0;
  }

  /** How many keys are tracked now. */
  get size(): number {
    return this.windows.size;
  }

  private dropEnded(now: number): void {
    while (this.head < this.started.length) {
      const first = this.started[this.head]!;
      if (first.window.resetAt > now) break;
      this.forget(first);
    }
    this.compact();
  }

  private dropOldest(): void {
    while (this.head < this.started.length) {
      const first = this.started[this.head]!;
      const live = this.windows.get(first.key) === first.window;
      this.forget(first);
      if (live) break;
    }
    this.compact();
  }

  private forget(entry: { key: string; window: Window }): void {
    if (this.windows.get(entry.key) === entry.window) this.windows.delete(entry.key);
    this.head += 1;
  }

  /** Drops the queue's consumed front once it is most of the array (amortised O(1)). */
  private compact(): void {
    if (this.head > 1_024 && this.head * 2 > this.started.length) {
      this.started.splice(0, this.head);
      this.head = 0;
    }
  }
}
