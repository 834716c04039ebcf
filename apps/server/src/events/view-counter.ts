import type { ContentCache } from '../cache/content-cache.ts';
import type { ViewCounts } from '../queries/views.ts';

/** Questions per read of their counts. */
const IDS_PER_READ = 500;

export interface ViewCounterDeps {
  /** The exact counts of these questions, with the recent viewers of those in `withViewers`. */
  read(questionIds: number[], withViewers: ReadonlySet<number>): Promise<Map<number, ViewCounts>>;
  cache: Pick<ContentCache, 'setViewCounts' | 'viewedElsewhere'>;
  /** Sends these questions' viewsUpdate (a socket showing several hears them in one frame). */
  announce(counts: ReadonlyMap<number, ViewCounts>): void;
  onError(error: unknown): void;
}

/**
 * First views are counters, not content changes (docs/product.md section 3): they drop no
 * cached page. The questions viewed here are gathered, and once every `intervalMs` their
 * counts are read in one query, set in this process's cached pages and list rows, told to
 * the other processes (which set theirs), and announced: one viewsUpdate per question,
 * naming its recent viewers and its exact count, and a socket showing several of them
 * (a list) gets theirs in one frame. So counts lag by at most that interval, and a
 * question viewed a thousand times in a second sends one update, not a thousand.
 */
export class ViewCounter {
  private pending = new Set<number>();
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: ViewCounterDeps,
    intervalMs: number,
  ) {
    this.timer = setInterval(() => void this.flush(), intervalMs).unref();
  }

  add(questionId: number): void {
    this.pending.add(questionId);
  }

  /** Brings the counts of the questions viewed since the last time up to date (one flush at a time). */
  flush(): Promise<void> {
    this.flushing ??= this.run().finally(() => (this.flushing = null));
    return this.flushing;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
  }

  private async run(): Promise<void> {
    const ids = [...this.pending];
    this.pending.clear();
    for (let start = 0; start < ids.length; start += IDS_PER_READ) {
      const chunk = ids.slice(start, start + IDS_PER_READ);
      try {
        const counts = await this.deps.read(chunk, new Set(chunk));
        this.deps.cache.setViewCounts(counts);
        await this.deps.cache.viewedElsewhere(counts);
        this.deps.announce(counts);
      } catch (error) {
        this.deps.onError(error);
      }
    }
  }
}
