/**
 * Signed uploads (/api/v2/object/sign): one row per signed object, and the per-tenant
 * secret that signs uploads to the local store.
 */
export const sql = `
CREATE TABLE objects (
  tenant_id     text NOT NULL,
  object_key    text NOT NULL,
  file_id       text NOT NULL,
  file_name     text NOT NULL,
  file_type     text NOT NULL,
  max_size      bigint NOT NULL,
  size          bigint,
  content_type  text,
  uploaded_at   timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, object_key)
);

CREATE TABLE object_secrets (
  tenant_id   text NOT NULL,
  secret      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id)
);
`;
