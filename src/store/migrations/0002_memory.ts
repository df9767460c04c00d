/**
 * Conversation memory: messages, the memories extracted from them, feedback signals and
 * the durable task queue that runs background work.
 *
 * Conventions: ids are 24 hex chars (tasks: `task_` + 24 hex); times of remembered
 * things are Unix milliseconds (`ts`), bookkeeping times are timestamptz; owner sets are
 * text[] (GIN-indexed); provenance is `source_message_ids` (jsonb array); soft delete is
 * `deleted_at`. Embedding columns are untyped `vector`: the dimension is fixed per
 * database by the embedder recorded in engram_settings, and vector indexes are built for it.
 */
export const sql = `
CREATE TABLE messages (
  tenant_id     text NOT NULL,
  id            text NOT NULL,
  app_id        text NOT NULL,
  project_id    text NOT NULL,
  session_id    text NOT NULL,
  seq           bigint GENERATED ALWAYS AS IDENTITY,
  sender_id     text NOT NULL,
  sender_name   text,
  role          text NOT NULL,
  content       text NOT NULL,
  content_items jsonb,
  tool_calls    jsonb,
  tool_call_id  text,
  ts            bigint NOT NULL,
  -- queued: accepted by an async add, not yet in the session buffer
  -- buffered: waiting for an extraction boundary
  -- segmented: cut into segment_id, extraction pending
  -- extracted: memory was extracted from it
  state         text NOT NULL,
  segment_id    text,
  task_id       text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz,
  search        tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
  embedding     vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX messages_session ON messages (tenant_id, app_id, project_id, session_id, ts, seq);
CREATE INDEX messages_pending ON messages (tenant_id, app_id, project_id, sender_id, ts)
  WHERE state <> 'extracted' AND deleted_at IS NULL;
CREATE INDEX messages_segment ON messages (tenant_id, segment_id);
CREATE INDEX messages_search ON messages USING gin (search);

CREATE TABLE episodes (
  tenant_id          text NOT NULL,
  id                 text NOT NULL,
  app_id             text NOT NULL,
  project_id         text NOT NULL,
  session_id         text,
  segment_id         text,
  owner_ids          text[] NOT NULL,
  sender_ids         text[] NOT NULL,
  ts                 bigint NOT NULL,
  subject            text NOT NULL,
  summary            text NOT NULL,
  episode            text NOT NULL,
  type               text NOT NULL,
  source_message_ids jsonb NOT NULL DEFAULT '[]',
  edited_at          timestamptz,
  reflect_state      text CHECK (reflect_state IN ('pending', 'done')),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  delete_reason      text,
  search             tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', subject), 'A') ||
    setweight(to_tsvector('english', summary), 'B') ||
    setweight(to_tsvector('english', episode), 'C')) STORED,
  embedding          vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX episodes_owner ON episodes USING gin (owner_ids);
CREATE INDEX episodes_scope ON episodes (tenant_id, app_id, project_id, ts);
CREATE INDEX episodes_session ON episodes (tenant_id, app_id, project_id, session_id);
CREATE INDEX episodes_search ON episodes USING gin (search);

CREATE TABLE atomic_facts (
  tenant_id          text NOT NULL,
  id                 text NOT NULL,
  episode_id         text NOT NULL,
  app_id             text NOT NULL,
  project_id         text NOT NULL,
  session_id         text,
  owner_ids          text[] NOT NULL,
  ts                 bigint NOT NULL,
  content            text NOT NULL,
  source_message_ids jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  search             tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
  embedding          vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX atomic_facts_episode ON atomic_facts (tenant_id, episode_id);
CREATE INDEX atomic_facts_owner ON atomic_facts USING gin (owner_ids);
CREATE INDEX atomic_facts_search ON atomic_facts USING gin (search);

CREATE TABLE profiles (
  tenant_id    text NOT NULL,
  id           text NOT NULL,
  app_id       text NOT NULL,
  project_id   text NOT NULL,
  user_id      text NOT NULL,
  profile_data jsonb NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz,
  search       tsvector,
  embedding    vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX profiles_owner ON profiles (tenant_id, app_id, project_id, user_id) WHERE deleted_at IS NULL;

CREATE TABLE agent_cases (
  tenant_id          text NOT NULL,
  id                 text NOT NULL,
  app_id             text NOT NULL,
  project_id         text NOT NULL,
  agent_id           text NOT NULL,
  session_id         text NOT NULL,
  segment_id         text,
  ts                 bigint NOT NULL,
  task_intent        text NOT NULL,
  approach           text NOT NULL,
  quality_score      double precision NOT NULL,
  key_insight        text,
  skill_id           text,
  source_message_ids jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  search             tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', task_intent), 'A') ||
    setweight(to_tsvector('english', approach || ' ' || coalesce(key_insight, '')), 'B')) STORED,
  embedding          vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX agent_cases_owner ON agent_cases (tenant_id, app_id, project_id, agent_id, ts);
CREATE INDEX agent_cases_search ON agent_cases USING gin (search);

CREATE TABLE agent_skills (
  tenant_id          text NOT NULL,
  id                 text NOT NULL,
  app_id             text NOT NULL,
  project_id         text NOT NULL,
  agent_id           text NOT NULL,
  name               text NOT NULL,
  description        text NOT NULL,
  content            text NOT NULL,
  confidence         double precision NOT NULL DEFAULT 0,
  maturity_score     double precision NOT NULL DEFAULT 0.6,
  source_case_ids    jsonb NOT NULL DEFAULT '[]',
  source_message_ids jsonb NOT NULL DEFAULT '[]',
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  deleted_at         timestamptz,
  search             tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english', name), 'A') ||
    setweight(to_tsvector('english', description), 'B') ||
    setweight(to_tsvector('english', content), 'C')) STORED,
  embedding          vector,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX agent_skills_owner ON agent_skills (tenant_id, app_id, project_id, agent_id, updated_at);
CREATE INDEX agent_skills_search ON agent_skills USING gin (search);

CREATE TABLE feedback (
  tenant_id   text NOT NULL,
  id          text NOT NULL,
  memory_type text NOT NULL,
  memory_id   text NOT NULL,
  item_id     text,
  rating      text NOT NULL,
  reason      text,
  note        text,
  suggestion  text,
  key_id      text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX feedback_memory ON feedback (tenant_id, memory_type, memory_id);

-- The durable job queue behind every asynchronous operation; each job is a task the
-- tasks endpoints report on. Jobs of one chain_key (a session) run one at a time in
-- seq order: a job created while another of its chain is unfinished waits as 'pending'.
CREATE TABLE tasks (
  tenant_id    text NOT NULL,
  id           text NOT NULL,
  seq          bigint GENERATED ALWAYS AS IDENTITY,
  task_type    text NOT NULL,
  status       text NOT NULL CHECK (status IN ('queued', 'processing', 'pending', 'success', 'failed')),
  app_id       text,
  project_id   text,
  session_id   text,
  chain_key    text,
  object       text,
  object_id    text,
  payload      jsonb NOT NULL DEFAULT '{}',
  result       jsonb,
  attempts     integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5,
  run_after    timestamptz NOT NULL DEFAULT now(),
  locked_by    text,
  locked_until timestamptz,
  error        text,
  error_code   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  started_at   timestamptz,
  finished_at  timestamptz,
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX tasks_runnable ON tasks (run_after, seq) WHERE status IN ('queued', 'processing');
CREATE INDEX tasks_chain ON tasks (tenant_id, chain_key, seq) WHERE status IN ('queued', 'processing', 'pending');
CREATE INDEX tasks_created ON tasks (tenant_id, created_at);
`;
