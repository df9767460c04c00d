/**
 * Term statistics for BM25 keyword search, maintained at write time by triggers.
 *
 * For each partition (tenant, app, project) and kind of searchable record, search_stats
 * holds the number of live documents and the sum of their lengths (distinct lexemes of
 * the `search` tsvector), and search_terms the document frequency of every lexeme. A
 * record counts while `deleted_at IS NULL`; updates subtract the old row and add the new.
 *
 * Concurrency: the trigger first takes a transaction-scoped advisory lock on the
 * partition, so writers of one partition update counters in one order (stats row, then
 * lexemes sorted) and cannot deadlock; writers of different partitions never meet.
 */
export const sql = `
CREATE TABLE search_stats (
  tenant_id  text NOT NULL,
  app_id     text NOT NULL,
  project_id text NOT NULL,
  kind       text NOT NULL,
  doc_count  bigint NOT NULL DEFAULT 0,
  total_len  bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, app_id, project_id, kind)
);

CREATE TABLE search_terms (
  tenant_id  text NOT NULL,
  app_id     text NOT NULL,
  project_id text NOT NULL,
  kind       text NOT NULL,
  term       text NOT NULL,
  df         bigint NOT NULL,
  PRIMARY KEY (tenant_id, app_id, project_id, kind, term)
);

CREATE FUNCTION engram_search_count(t text, a text, p text, k text, v tsvector, sign integer)
RETURNS void LANGUAGE plpgsql AS $fn$
BEGIN
  IF v IS NULL THEN RETURN; END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(t || chr(31) || a || chr(31) || p, 5303));
  INSERT INTO search_stats (tenant_id, app_id, project_id, kind, doc_count, total_len)
  VALUES (t, a, p, k, sign, sign * length(v))
  ON CONFLICT (tenant_id, app_id, project_id, kind) DO UPDATE
    SET doc_count = search_stats.doc_count + EXCLUDED.doc_count,
        total_len = search_stats.total_len + EXCLUDED.total_len;
  IF sign > 0 THEN
    INSERT INTO search_terms (tenant_id, app_id, project_id, kind, term, df)
    SELECT t, a, p, k, x.term, 1 FROM unnest(tsvector_to_array(v)) AS x(term) ORDER BY x.term
    ON CONFLICT (tenant_id, app_id, project_id, kind, term) DO UPDATE SET df = search_terms.df + 1;
  ELSE
    UPDATE search_terms SET df = df - 1
    WHERE tenant_id = t AND app_id = a AND project_id = p AND kind = k
      AND term = ANY (tsvector_to_array(v));
  END IF;
END
$fn$;

CREATE FUNCTION engram_search_stats_trigger() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.deleted_at IS NULL THEN
    PERFORM engram_search_count(OLD.tenant_id, OLD.app_id, OLD.project_id, TG_ARGV[0], OLD.search, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.deleted_at IS NULL THEN
    PERFORM engram_search_count(NEW.tenant_id, NEW.app_id, NEW.project_id, TG_ARGV[0], NEW.search, 1);
  END IF;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER episodes_search_stats AFTER INSERT OR DELETE ON episodes
  FOR EACH ROW EXECUTE FUNCTION engram_search_stats_trigger('episode');
CREATE TRIGGER episodes_search_stats_update AFTER UPDATE ON episodes
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION engram_search_stats_trigger('episode');

CREATE TRIGGER atomic_facts_search_stats AFTER INSERT OR DELETE ON atomic_facts
  FOR EACH ROW EXECUTE FUNCTION engram_search_stats_trigger('fact');
CREATE TRIGGER atomic_facts_search_stats_update AFTER UPDATE ON atomic_facts
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION engram_search_stats_trigger('fact');

CREATE TRIGGER agent_cases_search_stats AFTER INSERT OR DELETE ON agent_cases
  FOR EACH ROW EXECUTE FUNCTION engram_search_stats_trigger('agent_case');
CREATE TRIGGER agent_cases_search_stats_update AFTER UPDATE ON agent_cases
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION engram_search_stats_trigger('agent_case');

CREATE TRIGGER agent_skills_search_stats AFTER INSERT OR DELETE ON agent_skills
  FOR EACH ROW EXECUTE FUNCTION engram_search_stats_trigger('agent_skill');
CREATE TRIGGER agent_skills_search_stats_update AFTER UPDATE ON agent_skills
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION engram_search_stats_trigger('agent_skill');

-- Backfill from rows written before this migration.
INSERT INTO search_stats (tenant_id, app_id, project_id, kind, doc_count, total_len)
SELECT tenant_id, app_id, project_id, kind, count(*), sum(length(search))
FROM (
  SELECT tenant_id, app_id, project_id, 'episode' AS kind, search FROM episodes WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'fact', search FROM atomic_facts WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'agent_case', search FROM agent_cases WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'agent_skill', search FROM agent_skills WHERE deleted_at IS NULL
) d GROUP BY tenant_id, app_id, project_id, kind;

INSERT INTO search_terms (tenant_id, app_id, project_id, kind, term, df)
SELECT tenant_id, app_id, project_id, kind, term, count(*)
FROM (
  SELECT tenant_id, app_id, project_id, 'episode' AS kind, search FROM episodes WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'fact', search FROM atomic_facts WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'agent_case', search FROM agent_cases WHERE deleted_at IS NULL
  UNION ALL SELECT tenant_id, app_id, project_id, 'agent_skill', search FROM agent_skills WHERE deleted_at IS NULL
) d, unnest(tsvector_to_array(search)) AS term
GROUP BY tenant_id, app_id, project_id, kind, term;
`;
