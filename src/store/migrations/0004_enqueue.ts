/**
 * Enqueueing a job in one statement.
 *
 * engram_enqueue records a job: for a job with a chain key it first takes the chain's
 * transaction-scoped advisory lock (the same lock the queue takes when a job of the chain
 * finishes, keyed by the caller's `lock_key`), then looks for unfinished work of the chain
 * and records the job `pending` behind it, else `queued`. Being VOLATILE, the function reads
 * with a snapshot taken after the lock was granted (READ COMMITTED), so it sees a job that
 * finished just before; callers can therefore enqueue inside a larger statement (the
 * messages of an add and their job, in one round trip). Returns the job's status.
 */
export const sql = `
CREATE FUNCTION engram_enqueue(
  p_tenant text, p_id text, p_type text, p_app text, p_project text, p_session text,
  p_chain text, p_lock_key text, p_object text, p_object_id text, p_payload jsonb, p_max_attempts integer
) RETURNS text LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
  st text := 'queued';
BEGIN
  IF p_chain IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(p_lock_key, 7));
    IF EXISTS (SELECT 1 FROM tasks WHERE tenant_id = p_tenant AND chain_key = p_chain
                 AND status IN ('queued', 'processing', 'pending')) THEN
      st := 'pending';
    END IF;
  END IF;
  INSERT INTO tasks (tenant_id, id, task_type, status, app_id, project_id, session_id, chain_key,
                     object, object_id, payload, max_attempts)
  VALUES (p_tenant, p_id, p_type, st, p_app, p_project, p_session, p_chain,
          p_object, p_object_id, p_payload, p_max_attempts);
  RETURN st;
END
$fn$;
`;
