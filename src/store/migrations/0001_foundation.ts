/**
 * Tenants and API keys. Every table leads with tenant_id so the schema can be distributed
 * by tenant (Citus); api_keys is looked up by key_id before the tenant is known, which
 * makes it a reference table in a distributed deployment.
 */
export const sql = `
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE tenants (
  tenant_id   text PRIMARY KEY,
  created_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  tenant_id    text NOT NULL REFERENCES tenants (tenant_id),
  key_id       text NOT NULL,
  secret_hash  text NOT NULL,
  api_version  text NOT NULL CHECK (api_version IN ('v1', 'v2')),
  label        text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  revoked_at   timestamptz,
  PRIMARY KEY (tenant_id, key_id)
);
CREATE UNIQUE INDEX api_keys_key_id ON api_keys (key_id);

-- Process-wide settings that must agree across every engram process on one database
-- (for example the embedding model and vector dimension).
CREATE TABLE engram_settings (
  tenant_id  text NOT NULL DEFAULT '',
  key        text NOT NULL,
  value      jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, key)
);
`;
