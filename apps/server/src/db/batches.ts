/**
 * Gathers items into batches with one batch in flight at a time: an item added while a
 * batch is being sent goes into the next one, which starts as soon as that one is done.
 * Under load many items share one send (one NOTIFY, one INSERT and its commit); alone,
 * an item goes at once. `add` resolves (or rejects) with the send that carried it.
 */
export class Batches<T, R = void> {
  private waiting: Array<{ item: T; resolve: (result: R) => void; reject: (error: unknown) => void }> = [];
  private sending = false;

  constructor(
    private readonly send: (items: T[]) => Promise<R[]>,
    private readonly maxItems = Infinity,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.sending) void this.next();
    });
  }

  private async next(): Promise<void> {
    this.sending = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, this.maxItems);
      try {
        const results = await this.send(batch.map((entry) => entry.item));
        batch.forEach((entry, index) => entry.resolve(results[index] as R));
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.sending = false;
  }
}
