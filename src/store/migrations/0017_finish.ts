/**
 * Finishing a job in one statement.
 *
 * engram_finish records a job's outcome if this worker still holds it (`locked_by`) and, for
 * a job with a chain key, promotes the chain's next pending job to `queued`, under the
 * chain's transaction-scoped advisory lock (the lock engram_enqueue takes, keyed by the
 * caller's `lock_key`). Being VOLATILE, each of its statements reads with a snapshot taken
 * after the lock was granted (READ COMMITTED), so it sees a job enqueued just before: one
 * round trip, where a transaction of lock, update and promotion took five. Returns whether
 * the job was this worker's to finish.
 */
export const sql = `
CREATE FUNCTION engram_finish(
  p_tenant text, p_id text, p_status text, p_result jsonb, p_error text, p_error_code text,
  p_worker text, p_chain text, p_lock_key text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
  IF p_chain IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 7));
  END IF;
  UPDATE tasks SET status = p_status, result = p_result, error = p_error, error_code = p_error_code,
                   finished_at = clock_timestamp(), locked_by = NULL, locked_until = NULL, updated_at = now()
  WHERE tenant_id = p_tenant AND id = p_id AND locked_by = p_worker;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  IF p_chain IS NOT NULL THEN
    UPDATE tasks SET status = 'queued', updated_at = now()
    WHERE (tenant_id, id) IN (
      SELECT tenant_id, id FROM tasks WHERE tenant_id = p_tenant AND chain_key = p_chain AND status = 'pending'
      ORDER BY seq LIMIT 1);
  END IF;
  RETURN true;
END
$fn$;
`;
