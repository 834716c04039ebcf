/**
 * Live engine.io clients per address key and in total (docs/product.md section 6: one visitor
 * cannot exhaust the server). The handshake asks `admits` before engine.io allocates
 * anything; a client counts from its `connection` event until its `close`, so a refused or
 * finished handshake holds nothing. Counting live clients rather than reservations leaves
 * nothing to leak when an upgrade fails half-way: between `allowRequest` and `connection`
 * engine.io only awaits a microtask, so no second handshake slips in between.
 */
export class ClientLimits {
  private readonly perAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: { perAddress: number; total: number }) {}

  /** Whether one more client from `key` fits. */
  admits(key: string): boolean {
    return this.total < this.limits.total && (this.perAddress.get(key) ?? 0) < this.limits.perAddress;
  }

  opened(key: string): void {
    this.total++;
    this.perAddress.set(key, (this.perAddress.get(key) ?? 0) + 1);
  }

  closed(key: string): void {
    this.total--;
    const left = (this.perAddress.get(key) ?? 1) - 1;
    if (left > 0) this.perAddress.set(key, left);
    else this.perAddress.delete(key);
  }

  /** Live clients, and how many addresses they come from (both 0 once every client closed). */
  counts(): { total: number; addresses: number } {
    return { total: this.total, addresses: this.perAddress.size };
  }
}
