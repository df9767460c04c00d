/**
 * State that several engram processes on one database share: MCP sessions (any process can
 * serve any request of a session), their resource subscriptions, the outbox of
 * notifications each session's event stream delivers (and replays after Last-Event-ID),
 * and the per-key rate-limit buckets.
 */
export const sql = `
CREATE TABLE mcp_sessions (
  tenant_id   text NOT NULL,
  session_id  text NOT NULL,
  key_id      text NOT NULL,
  initialize  jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  seen_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, session_id)
);

CREATE TABLE mcp_subscriptions (
  tenant_id   text NOT NULL,
  uri         text NOT NULL,
  session_id  text NOT NULL,
  PRIMARY KEY (tenant_id, uri, session_id),
  FOREIGN KEY (tenant_id, session_id) REFERENCES mcp_sessions (tenant_id, session_id) ON DELETE CASCADE
);

CREATE TABLE mcp_events (
  tenant_id   text NOT NULL,
  session_id  text NOT NULL,
  seq         bigint GENERATED ALWAYS AS IDENTITY,
  message     jsonb NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, session_id, seq),
  FOREIGN KEY (tenant_id, session_id) REFERENCES mcp_sessions (tenant_id, session_id) ON DELETE CASCADE
);
CREATE INDEX mcp_events_created ON mcp_events (created_at);

CREATE TABLE rate_buckets (
  tenant_id   text NOT NULL,
  key_id      text NOT NULL,
  tokens      double precision NOT NULL,
  at          timestamptz NOT NULL,
  allowed     boolean NOT NULL,
  PRIMARY KEY (tenant_id, key_id)
);
`;
