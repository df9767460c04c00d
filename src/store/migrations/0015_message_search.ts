import { backfillCounts, type Counted, countTriggers, MEMORY } from './0011_search_counts.js';

/**
 * Message turns become a searchable kind beside facts and episodes. Their BM25 statistics
 * are kept in search_counts (kind `message`) per session: a turn is visible to every
 * sender of its session, so a search sums the statistics of the owner's sessions. Counted
 * by the same statement-level triggers as migration 0011, backfilled from the messages
 * already stored. Message embeddings (the `embedding` column of 0002) are written when a
 * message is processed. The owner's sessions (where the owner sent a message) are found
 * by index.
 */
const MESSAGES: Counted = { kind: 'message', owners: 'ARRAY[{r}.session_id]', ...MEMORY };

export const sql = `
CREATE INDEX messages_sender ON messages (tenant_id, app_id, project_id, sender_id, session_id)
  WHERE deleted_at IS NULL;
${countTriggers('messages', MESSAGES)}

${backfillCounts({ messages: MESSAGES })}
`;
