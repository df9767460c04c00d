/**
 * A session's messages that are not extracted yet, by session: what every processing job
 * reads (its buffer, its open segments), so that a job's reads follow the session's open
 * messages rather than its whole history.
 */
export const sql = `
CREATE INDEX messages_open ON messages (tenant_id, app_id, project_id, session_id, state, ts, seq)
  WHERE state <> 'extracted' AND deleted_at IS NULL;
`;
