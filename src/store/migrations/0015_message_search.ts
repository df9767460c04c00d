import { backfillCounts, countTriggers, MEMORY } from './0011_search_counts.js';
import { backfillPostings, type Posted, postingTriggers } from './0014_search_postings.js';

/**
 * Message turns become a searchable kind beside facts and episodes.
 *
 * - An extracted turn is owned like the episode made from it: `owner_ids` holds the human
 *   senders of its segment, written when the segment is extracted (null before). Deleting
 *   an owner removes them from it, as from a shared episode.
 * - Extracted turns are counted in search_counts (kind `message`) and posted in
 *   search_postings for each owner, by the same statement-level triggers as the memory
 *   tables (migrations 0011, 0014), so the keyword route over an owner's turns reads a
 *   bounded number of postings however many turns the owner has. Turns not yet extracted
 *   have no owners yet and are neither counted nor posted: they are few (the open buffers)
 *   and searched among the open messages of the owner's sessions.
 * - Message embeddings (the `embedding` column of 0002) are written when a message is
 *   processed.
 * - messages_sender finds whether the owner took part in a session; messages_owner serves
 *   the delete of an owner.
 */
export const MESSAGES: Posted = {
  kind: 'message',
  owners: '{r}.owner_ids',
  ...MEMORY,
  live: `{r}.deleted_at IS NULL AND {r}.state = 'extracted'`,
  reference: 12,
};

export const sql = `
ALTER TABLE messages ADD COLUMN owner_ids text[];
UPDATE messages m SET owner_ids = ARRAY(
    SELECT DISTINCT h.sender_id FROM messages h
    WHERE h.tenant_id = m.tenant_id AND h.segment_id = m.segment_id AND h.role = 'user' AND h.deleted_at IS NULL
    ORDER BY 1)
  WHERE m.state = 'extracted' AND m.segment_id IS NOT NULL;
CREATE INDEX messages_sender ON messages (tenant_id, app_id, project_id, sender_id, session_id)
  WHERE deleted_at IS NULL;
CREATE INDEX messages_owner ON messages USING gin (owner_ids) WHERE deleted_at IS NULL;
${countTriggers('messages', MESSAGES)}
${postingTriggers('messages', MESSAGES)}

${backfillCounts({ messages: MESSAGES })}
${backfillPostings('messages', MESSAGES)}
`;
