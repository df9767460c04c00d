/**
 * A fact is live exactly while its episode is. Every path that deletes an episode (delete by
 * scope, delete_by_ids) deletes its facts in the same transaction, and search now reads an
 * unfiltered fact's liveness from the fact alone instead of looking up its episode per fact
 * (an exact scan of a small owner's facts spent most of its buffers on those lookups). This
 * brings rows written otherwise in line: a live fact of a deleted episode is deleted with
 * the episode's time. Its search counts and postings follow through their triggers.
 */
export const sql = `
UPDATE atomic_facts f SET deleted_at = e.deleted_at
FROM episodes e
WHERE e.tenant_id = f.tenant_id AND e.id = f.episode_id
  AND e.deleted_at IS NOT NULL AND f.deleted_at IS NULL;
`;
