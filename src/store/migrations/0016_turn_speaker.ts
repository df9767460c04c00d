import { backfillCounts, MEMORY } from './0011_search_counts.js';
import { backfillPostings, type Posted } from './0014_search_postings.js';

/**
 * Extracted turns as counted and posted by 0015 (the same spec: 0015's triggers keep
 * counting them after this migration).
 */
const TURNS: Posted = {
  kind: 'message',
  owners: '{r}.owner_ids',
  ...MEMORY,
  live: `{r}.deleted_at IS NULL AND {r}.state = 'extracted'`,
  reference: 12,
};

/**
 * A turn's search text names who said it: the sender's display name (weight D) beside the
 * content, so a question about a person matches that person's own turns ("what do Ann's
 * kids like" finds Ann saying "my kids love ..."), as facts already name their subject.
 * The generated column is replaced; the turns' statistics and postings are recounted.
 */
export const sql = `
ALTER TABLE messages DROP COLUMN search;
ALTER TABLE messages ADD COLUMN search tsvector GENERATED ALWAYS AS (
  setweight(to_tsvector('english', coalesce(sender_name, '')), 'D') || to_tsvector('english', content)) STORED;
CREATE INDEX messages_search ON messages USING gin (search);
DELETE FROM search_counts WHERE kind = 'message';
DELETE FROM search_postings WHERE kind = 'message';
${backfillCounts({ messages: TURNS })}
${backfillPostings('messages', TURNS)}
`;
