/** Takes a token for an API key: 0 when allowed, else the seconds to wait. */
export interface KeyLimiter {
  take(tenantId: string, keyId: string): number | Promise<number>;
}

/**
 * A token bucket per API key in this process: `rps` tokens a second, up to `burst`. Used
 * with the embedded database, which only one process can open; on a PostgreSQL server
 * the buckets live in the database (engine/rate-buckets.ts) and hold across processes.
 */
export class RateLimiter implements KeyLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly rps: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.rps > 0;
  }

  /** Takes a token for key; returns 0 when allowed, else the seconds to wait. */
  take(tenantId: string, keyId: string): number {
    if (!this.enabled) return 0;
    const key = `${tenantId}\u0000${keyId}`;
    const t = this.now();
    const b = this.buckets.get(key) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.rps);
    b.at = t;
    this.buckets.set(key, b);
    if (this.buckets.size > 10_000) this.sweep(t);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.rps));
  }

  private sweep(t: number) {
    const full = (this.burst / this.rps) * 1000;
    for (const [k, b] of this.buckets) if (t - b.at > full) this.buckets.delete(k);
  }
}
