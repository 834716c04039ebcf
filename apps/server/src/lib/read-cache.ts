/** A cache's memory bound: what it may hold in all, the largest entry it keeps, and how entries are measured. */
export interface ByteBudget<V> {
  maxBytes: number;
  maxEntryBytes: number;
  sizeOf(value: V): number;
}

/**
 * Answers repeated reads from memory until the content changes. Any change clears all of
 * it (writes are rare next to reads, and a precise dependency map is where stale pages
 * come from). A load that was running when the content changed is handed to the requests
 * that were waiting for it but never kept, and requests after the change never join it.
 * With a byte budget it never holds more than its bytes: the oldest entries go first, and
 * an entry larger than the largest it keeps is answered but not kept.
 */
export class ReadCache<V> {
  private generation = 0;
  /** Loads started (misses), for tests and metrics. */
  loads = 0;
  private readonly entries = new Map<string, { value: V; size: number }>();
  private heldBytes = 0;
  private readonly loading = new Map<string, Promise<V>>();

  /**
   * @param maxEntries past this many, the oldest entry goes
   * @param usable false while a change might go unheard (then every read loads)
   * @param budget the bytes it may hold, measured by `budget.sizeOf`
   */
  constructor(
    private readonly maxEntries: number,
    private readonly usable: () => boolean = () => true,
    private readonly budget?: ByteBudget<V>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The bytes its entries hold, as the budget measures them (0 without one). */
  get bytes(): number {
    return this.heldBytes;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.usable()) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit.value;
    const pending = this.loading.get(key);
    if (pending) return pending;

    const generation = this.generation;
    this.loads += 1;
    const promise = load().then((value) => {
      if (generation === this.generation && this.usable()) this.keep(key, value);
      return value;
    });
    this.loading.set(key, promise);
    const forget = () => {
      if (this.loading.get(key) === promise) this.loading.delete(key);
    };
    promise.then(forget, forget);
    return promise;
  }

  /** The content changed: forget every answer, and every load already under way. */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
    this.heldBytes = 0;
    this.loading.clear();
  }

  private keep(key: string, value: V): void {
    const size = this.budget?.sizeOf(value) ?? 0;
    if (this.budget && size > Math.min(this.budget.maxEntryBytes, this.budget.maxBytes)) return;
    this.drop(key);
    const maxBytes = this.budget?.maxBytes ?? Infinity;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.heldBytes + size > maxBytes)) {
      this.drop(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, size });
    this.heldBytes += size;
  }

  private drop(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.heldBytes -= entry.size;
  }
}
