import type { MemoryType } from '../../contract/common.js';
import type { Db } from '../../core/db.js';

/** Rows removed by one purge, by table. */
export interface PurgeCounts {
  messages: number;
  episodes: number;
  atomic_facts: number;
  profiles: number;
  agent_cases: number;
  agent_skills: number;
  feedback: number;
  /** v1 Cloud copies (their v1 fields) of the messages removed. */
  v1_messages: number;
}

/** The soft-deleted tables, with the memory type feedback names their rows by. */
const TABLES: [Exclude<keyof PurgeCounts, 'feedback' | 'v1_messages'>, MemoryType | undefined][] = [
  ['messages', undefined],
  ['atomic_facts', undefined],
  ['episodes', 'episode'],
  ['profiles', 'profile'],
  ['agent_cases', 'agent_case'],
  ['agent_skills', 'agent_skill'],
];

/**
 * Removes for good what delete only marked: every row soft-deleted at least `olderThanMs`
 * ago (all of them at 0), of one tenant or all, with the feedback given on those memories.
 * One transaction: a purge that fails removes nothing. Live rows are never touched, and
 * the search statistics count live rows only, so they stay as they are.
 */
export async function purgeDeleted(db: Db, olderThanMs = 0, tenantId?: string): Promise<PurgeCounts> {
  return db.transaction(async (tx) => {
    const counts: PurgeCounts = {
      messages: 0,
      episodes: 0,
      atomic_facts: 0,
      profiles: 0,
      agent_cases: 0,
      agent_skills: 0,
      feedback: 0,
      v1_messages: 0,
    };
    for (const [table, type] of TABLES) {
      const gone = await tx.query<{ tenant_id: string; id: string }>(
        `DELETE FROM ${table}
         WHERE deleted_at < now() - make_interval(secs => $1::float8 / 1000.0)
           AND ($2::text IS NULL OR tenant_id = $2)
         RETURNING tenant_id, id`,
        [olderThanMs, tenantId ?? null],
      );
      counts[table] = gone.length;
      if (table === 'messages' && gone.length) {
        const copies = await tx.query(
          `DELETE FROM v1_messages v USING jsonb_to_recordset($1::jsonb) AS x(tenant_id text, id text)
           WHERE v.tenant_id = x.tenant_id AND v.engine_id = x.id
           RETURNING v.message_id`,
          [JSON.stringify(gone)],
        );
        counts.v1_messages = copies.length;
      }
      if (type && gone.length) {
        const notes = await tx.query(
          `DELETE FROM feedback f USING jsonb_to_recordset($2::jsonb) AS x(tenant_id text, id text)
           WHERE f.tenant_id = x.tenant_id AND f.memory_type = $1 AND f.memory_id = x.id
           RETURNING f.id`,
          [type, JSON.stringify(gone)],
        );
        counts.feedback += notes.length;
      }
    }
    return counts;
  });
}
