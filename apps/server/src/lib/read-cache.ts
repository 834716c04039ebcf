/**
 * Answers repeated reads from memory until the content changes. Any change clears all of
 * it (writes are rare next to reads, and a precise dependency map is where stale pages
 * come from). A load that was running when the content changed is handed to the requests
 * that were waiting for it but never kept, and requests after the change never join it.
 */
export class ReadCache<V> {
  private generation = 0;
  /** Loads started (misses), for tests and metrics. */
  loads = 0;
  private readonly entries = new Map<string, V>();
  private readonly loading = new Map<string, Promise<V>>();

  /**
   * @param maxEntries past this many, the oldest entry goes
   * @param usable false while a change might go unheard (then every read loads)
   */
  constructor(
    private readonly maxEntries: number,
    private readonly usable: () => boolean = () => true,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.usable()) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
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
    this.loading.clear();
  }

  private keep(key: string, value: V): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}
