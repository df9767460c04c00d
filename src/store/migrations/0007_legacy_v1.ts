/**
 * The legacy v1 (Cloud) store. A v1 message is kept here with its v1 fields and is also
 * handed to the memory engine under the reserved partition V1_SCOPE (an app_id the v2
 * contract cannot name), so v1 and v2 hold separate memories until the operator migrates
 * a tenant: `migrated_id` then records the v2 message each v1 message became.
 */
export const sql = `
CREATE TABLE v1_messages (
  tenant_id    text NOT NULL,
  message_id   text NOT NULL,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  group_id     text NOT NULL,
  sender       text NOT NULL,
  sender_name  text NOT NULL,
  role         text NOT NULL,
  content      text NOT NULL,
  refer_list   jsonb NOT NULL DEFAULT '[]',
  create_time  bigint NOT NULL,
  engine_id    text NOT NULL,
  migrated_id  text,
  migrated_at  timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, message_id)
);
CREATE INDEX v1_messages_unmigrated ON v1_messages (tenant_id, seq) WHERE migrated_id IS NULL;
CREATE INDEX v1_messages_group ON v1_messages (tenant_id, group_id, seq);
CREATE INDEX v1_messages_engine ON v1_messages (tenant_id, engine_id);

CREATE TABLE v1_senders (
  tenant_id   text NOT NULL,
  sender_id   text NOT NULL,
  name        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, sender_id)
);

CREATE TABLE v1_groups (
  tenant_id    text NOT NULL,
  group_id     text NOT NULL,
  name         text NOT NULL,
  description  text NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, group_id)
);
`;
