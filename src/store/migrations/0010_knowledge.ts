/**
 * Knowledge bases: a tenant's knowledge bases, their categories, documents and the topic
 * tree each document is split into. Topics are the retrieval unit: each carries its own
 * `search` tsvector (name A, summary B, content C) and embedding, and counts in the BM25
 * statistics under the scope ('kb', kb_id) and kind 'topic', so term frequencies are per
 * knowledge base.
 *
 * Tags are opaque ids on the topic (`tag_ids`, at most 50) with a compare-and-set
 * version (`tag_version`) that advances on every change of the set.
 */
export const sql = `
CREATE TABLE knowledge_bases (
  tenant_id   text NOT NULL,
  id          text NOT NULL,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  owner_id    text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX knowledge_bases_list ON knowledge_bases (tenant_id, created_at DESC, id);

CREATE TABLE kb_categories (
  tenant_id   text NOT NULL,
  id          text NOT NULL,
  kb_id       text NOT NULL,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, kb_id) REFERENCES knowledge_bases (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX kb_categories_kb ON kb_categories (tenant_id, kb_id, created_at, id);

CREATE TABLE kb_documents (
  tenant_id   text NOT NULL,
  id          text NOT NULL,
  kb_id       text NOT NULL,
  category_id text,
  title       text NOT NULL,
  summary     text,
  source_name text,
  source_type text,
  -- The document's text as ingested (Markdown or plain text), kept for re-splitting.
  body        text NOT NULL DEFAULT '',
  -- queued | processing | ready | failed: where the splitting task stands.
  status      text NOT NULL DEFAULT 'queued',
  topic_count integer NOT NULL DEFAULT 0,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, kb_id) REFERENCES knowledge_bases (tenant_id, id) ON DELETE CASCADE,
  FOREIGN KEY (tenant_id, category_id) REFERENCES kb_categories (tenant_id, id) ON DELETE SET NULL (category_id)
);
CREATE INDEX kb_documents_kb ON kb_documents (tenant_id, kb_id, created_at DESC, id);
CREATE INDEX kb_documents_category ON kb_documents (tenant_id, category_id) WHERE category_id IS NOT NULL;

CREATE TABLE kb_topics (
  tenant_id    text NOT NULL,
  id           text NOT NULL,
  kb_id        text NOT NULL,
  doc_id       text NOT NULL,
  type         text NOT NULL,
  name         text NOT NULL,
  summary      text NOT NULL DEFAULT '',
  content      text NOT NULL DEFAULT '',
  depth        integer NOT NULL DEFAULT 0,
  seq          integer NOT NULL DEFAULT 0,
  parent_id    text,
  children_ids text[] NOT NULL DEFAULT '{}',
  labels       text[] NOT NULL DEFAULT '{}',
  metadata     jsonb NOT NULL DEFAULT '{}',
  tag_ids      text[] NOT NULL DEFAULT '{}',
  tag_version  integer NOT NULL DEFAULT 0,
  embedding    vector,
  search       tsvector,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, doc_id) REFERENCES kb_documents (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX kb_topics_doc ON kb_topics (tenant_id, doc_id, seq);
CREATE INDEX kb_topics_kb ON kb_topics (tenant_id, kb_id, doc_id, seq);
CREATE INDEX kb_topics_search ON kb_topics USING gin (search);
CREATE INDEX kb_topics_tags ON kb_topics USING gin (tag_ids);

CREATE FUNCTION engram_topic_search_stats() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM engram_search_count(OLD.tenant_id, 'kb', OLD.kb_id, 'topic', OLD.search, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM engram_search_count(NEW.tenant_id, 'kb', NEW.kb_id, 'topic', NEW.search, 1);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER kb_topics_search_stats AFTER INSERT OR DELETE ON kb_topics
  FOR EACH ROW EXECUTE FUNCTION engram_topic_search_stats();
CREATE TRIGGER kb_topics_search_stats_update AFTER UPDATE ON kb_topics
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION engram_topic_search_stats();
`;
