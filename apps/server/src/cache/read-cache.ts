/** A cache's memory bound: what it may hold in all, the largest entry it keeps, and how entries are measured. */
export interface ByteBudget<V> {
  maxBytes: number;
  maxEntryBytes: number;
  sizeOf(value: V): number;
}

/**
 * Answers repeated reads from memory until what they hold changes. A write drops exactly
 * the entries it touched (`invalidate`, chosen by key or by what an entry holds); losing
 * the signal that carries writes from other processes drops everything (`clear`). A load
 * that was running when a write touched it is handed to the requests that were waiting
 * for it but never kept, and requests after any write never join a load begun before it.
 * With a byte budget it never holds more than its bytes: the least recently read go first, and
 * an entry larger than the largest it keeps is answered but not kept.
 */
/** A load under way: the writes it overlapped, to check what it brings back against. */
interface Flight<V> {
  key: string;
  promise: Promise<V>;
  touched: Array<(key: string, value: V) => boolean>;
}

export class ReadCache<V> {
  private generation = 0;
  /** Loads started (misses), for tests and metrics. */
  loads = 0;
  /** Answers from held entries, for metrics. */
  hits = 0;
  private readonly entries = new Map<string, { value: V; size: number }>();
  private heldBytes = 0;
  private readonly loading = new Map<string, Flight<V>>();
  /** Every load under way, joined or not: a write must reach those it touched. */
  private readonly inFlight = new Set<Flight<V>>();

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
    if (hit !== undefined) {
      // Least recently used goes first: a hit moves its entry to the newest end.
      this.entries.delete(key);
      this.entries.set(key, hit);
      this.hits += 1;
      return hit.value;
    }
    const pending = this.loading.get(key);
    if (pending) return pending.promise;

    const generation = this.generation;
    this.loads += 1;
    const flight: Flight<V> = { key, promise: undefined as unknown as Promise<V>, touched: [] };
    flight.promise = load().then((value) => {
      const untouched = !flight.touched.some((matches) => matches(key, value));
      if (generation === this.generation && untouched && this.usable()) this.keep(key, value);
      return value;
    });
    this.loading.set(key, flight);
    this.inFlight.add(flight);
    const forget = () => {
      this.inFlight.delete(flight);
      if (this.loading.get(key) === flight) this.loading.delete(key);
    };
    flight.promise.then(forget, forget);
    return flight.promise;
  }

  /** The entry for `key` if it is held (no load); for updating it in place. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** Every entry held, for updating in place (a view count). */
  *values(): Generator<[string, V]> {
    for (const [key, { value }] of this.entries) yield [key, value];
  }

  /**
   * A write changed what the entries `matches` accepts: they go, and so does whatever a
   * load under way brings back that `matches` accepts. Requests from now on start their
   * own loads rather than join one begun before the write.
   */
  invalidate(matches: (key: string, value: V) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.drop(key);
    for (const flight of this.inFlight) flight.touched.push(matches);
    this.loading.clear();
  }

  /** The content may have changed unheard (the signal was lost): forget every answer, and every load under way. */
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
