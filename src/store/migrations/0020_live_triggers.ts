import { countFunction } from './0011_search_counts.js';
import { postingFunction } from './0014_search_postings.js';
import { MESSAGES } from './0015_message_search.js';

/**
 * The search_counts and search_postings triggers on messages return at once when no row of
 * the statement is or was a live extracted turn. Most writes of messages are of open turns
 * (the add's INSERT of queued turns, a processing job's UPDATE that buffers, cuts and
 * embeds them): none of their rows counts, yet the functions of migrations 0011 and 0014
 * (0015) joined the old and new transition tables and ran their INSERT / DELETE statements
 * for nothing. Same functions otherwise, from the same helpers; the triggers are unchanged.
 * The memory tables' rows are live until deleted, so their functions stay as they are.
 */
export const sql = `
${countFunction('messages', MESSAGES, true)}
${postingFunction('messages', MESSAGES, true)}
`;
