import type { Db } from '../core/db.js';

/**
 * The per-key token bucket kept in the database, so that every engram process on it draws
 * from one bucket per key: `rps` tokens a second up to `burst`, whatever the number of
 * processes behind the load balancer. One upsert per request, timed by the database's
 * clock (the processes' clocks may disagree); the row lock serialises concurrent requests
 * of one key, requests of different keys do not wait for each other.
 */
/** The bucket's tokens now: what was left plus the refill since, at most the burst. */
const REFILLED = `least($3::float8, b.tokens + greatest(0, extract(epoch FROM excluded.at - b.at)) * $4::float8)`;

export class RateBuckets {
  constructor(
    private readonly db: Db,
    private readonly rps: number,
    private readonly burst: number,
  ) {}

  get enabled(): boolean {
    return this.rps > 0;
  }

  /** Takes a token for the key; returns 0 when allowed, else the seconds to wait. */
  async take(tenantId: string, keyId: string): Promise<number> {
    if (!this.enabled) return 0;
    const rows = await this.db.query<{ tokens: number; allowed: boolean }>(
      `INSERT INTO rate_buckets AS b (tenant_id, key_id, tokens, at, allowed)
       VALUES ($1, $2, $3::float8 - 1, clock_timestamp(), true)
       ON CONFLICT (tenant_id, key_id) DO UPDATE SET
         tokens = ${REFILLED} - CASE WHEN ${REFILLED} >= 1 THEN 1 ELSE 0 END,
         allowed = ${REFILLED} >= 1,
         at = greatest(b.at, excluded.at)
       RETURNING tokens, allowed`,
      [tenantId, keyId, this.burst, this.rps],
    );
    const r = rows[0]!;
    if (r.allowed) return 0;
    return Math.max(1, Math.ceil((1 - Number(r.tokens)) / this.rps));
  }
}
