/**
 * Self-hosted v1 messages (`/api/v1/memory/*`, kept in the reserved `v1:self:` partitions)
 * already copied into v2 by `engram migrate v1-to-v2`, with the id of their v2 copy.
 */
export const sql = `
CREATE TABLE v1_self_migrated (
  tenant_id   text NOT NULL,
  message_id  text NOT NULL,
  migrated_id text NOT NULL,
  migrated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, message_id)
);
`;
