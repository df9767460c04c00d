/**
 * Owner-scoped BM25 statistics, kept by one statement per written statement.
 *
 * Replaces migration 0003's search_stats / search_terms (per partition, maintained per
 * row under a partition-wide advisory lock), which migration 0010's knowledge-base topics
 * also used. search_counts holds, per tenant, scope, kind and owner, the live documents and
 * their total length (term '') and the document frequency of every lexeme (term = the
 * lexeme). A document counts for each of its owners (episodes and facts: owner_ids; cases
 * and skills: the agent) while `deleted_at IS NULL`; knowledge-base topics count under the
 * scope ('kb', kb id) with the knowledge base as their owner, as in 0010. A change of
 * text, owners, scope or liveness subtracts the old row and adds the new one.
 *
 * Writes: one statement-level trigger per table aggregates the statement's rows into one
 * delta per key and adds it with one INSERT .. ON CONFLICT DO UPDATE, keys in sorted
 * order (so two statements never deadlock on each other's keys). Writers of different
 * owners touch different rows and never wait for each other; two open transactions
 * writing for the same owner wait on that owner's rows until the first commits.
 * Trigger functions hold static SQL, so PL/pgSQL keeps each plan for the session.
 */
export interface Counted {
  kind: string;
  /** SQL over a row `{r}`: its statistics scope (app, project), owners, and whether it counts. */
  app: string;
  project: string;
  owners: string;
  live: string;
}

export const MEMORY = { app: '{r}.app_id', project: '{r}.project_id', live: '{r}.deleted_at IS NULL' };
export const COUNTED: Record<string, Counted> = {
  episodes: { kind: 'episode', owners: '{r}.owner_ids', ...MEMORY },
  atomic_facts: { kind: 'fact', owners: '{r}.owner_ids', ...MEMORY },
  agent_cases: { kind: 'agent_case', owners: 'ARRAY[{r}.agent_id]', ...MEMORY },
  agent_skills: { kind: 'agent_skill', owners: 'ARRAY[{r}.agent_id]', ...MEMORY },
  kb_topics: {
    kind: 'topic',
    app: `'kb'::text`,
    project: '{r}.kb_id',
    owners: 'ARRAY[{r}.kb_id]',
    live: 'TRUE',
  },
};
const TABLES = Object.keys(COUNTED);

export const on = (expr: string, alias: string) => expr.replaceAll('{r}', alias);

/** Rows of a transition table as (tenant, app, project, owners, search, sign). */
const rows = (c: Counted, alias: 'o' | 'n', sign: 1 | -1) => {
  return `SELECT ${alias}.tenant_id, ${on(c.app, alias)} AS app_id, ${on(c.project, alias)} AS project_id,
          ${on(c.owners, alias)} AS owners, ${alias}.search, ${sign} AS sign`;
};

/** Old and new rows of an UPDATE whose counted part (text, scope, owners, liveness) changed. */
const changed = (c: Counted) => {
  return `(n.search IS DISTINCT FROM o.search
    OR ${[c.live, c.app, c.project, c.owners].map((e) => `(${on(e, 'n')}) IS DISTINCT FROM (${on(e, 'o')})`).join('\n    OR ')})`;
};

/** Adds the documents of `src` (rows as above) to search_counts. */
const fold = (c: Counted, src: string) => `
    WITH d AS (${src}),
    delta AS (
      SELECT d.tenant_id, d.app_id, d.project_id, w.owner_id, ''::text AS term,
             sum(d.sign)::bigint AS docs, sum(d.sign * length(d.search))::bigint AS len
      FROM d CROSS JOIN LATERAL unnest(d.owners) AS w(owner_id) WHERE d.search IS NOT NULL
      GROUP BY 1, 2, 3, 4
      UNION ALL
      SELECT d.tenant_id, d.app_id, d.project_id, w.owner_id, x.term, sum(d.sign)::bigint, 0::bigint
      FROM d CROSS JOIN LATERAL unnest(d.owners) AS w(owner_id)
      CROSS JOIN LATERAL unnest(tsvector_to_array(d.search)) AS x(term)
      GROUP BY 1, 2, 3, 4, 5),
    nz AS (SELECT * FROM delta WHERE docs <> 0 OR len <> 0)
    INSERT INTO search_counts AS c (tenant_id, app_id, project_id, kind, owner_id, term, docs, len)
    SELECT nz.tenant_id, nz.app_id, nz.project_id, '${c.kind}', nz.owner_id, nz.term, nz.docs, nz.len
    FROM nz ORDER BY nz.tenant_id, nz.app_id, nz.project_id, nz.owner_id, nz.term
    ON CONFLICT (tenant_id, app_id, project_id, kind, owner_id, term)
    DO UPDATE SET docs = c.docs + excluded.docs, len = c.len + excluded.len;`;

/**
 * Early exit of a trigger function whose statement has no counted row among `tables` (the
 * transition tables of its operation): one scan that stops at the first live row, before
 * any join or write. Empty unless `early` (the functions as migrations 0011 and 0014 wrote them).
 */
export const unlessLive = (c: Counted, early: boolean, ...tables: ('old_rows' | 'new_rows')[]) =>
  early
    ? `
    IF NOT EXISTS (${tables.map((t) => `SELECT FROM ${t} r WHERE ${on(c.live, 'r')}`).join(' UNION ALL ')}) THEN
      RETURN NULL;
    END IF;`
    : '';

/** `CREATE FUNCTION`, or with `early` (a later migration's variant) `CREATE OR REPLACE FUNCTION`. */
export const createFunction = (early: boolean) => (early ? 'CREATE OR REPLACE FUNCTION' : 'CREATE FUNCTION');

/**
 * The function behind table `t`'s search_counts triggers, counted as `c`; with `early` it
 * replaces the one of migration 0011 and returns at once when no row of the statement counts.
 */
export const countFunction = (t: string, c: Counted, early = false) => `
${createFunction(early)} engram_search_counts_${t}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN${unlessLive(c, early, 'new_rows')}${fold(c, `${rows(c, 'n', 1)} FROM new_rows n WHERE ${on(c.live, 'n')}`)}
  ELSIF TG_OP = 'DELETE' THEN${unlessLive(c, early, 'old_rows')}${fold(c, `${rows(c, 'o', -1)} FROM old_rows o WHERE ${on(c.live, 'o')}`)}
  ELSE${unlessLive(c, early, 'old_rows', 'new_rows')}${fold(
    c,
    `${rows(c, 'o', -1)} FROM old_rows o JOIN new_rows n ON n.tenant_id = o.tenant_id AND n.id = o.id
     WHERE ${on(c.live, 'o')} AND ${changed(c)}
     UNION ALL
     ${rows(c, 'n', 1)} FROM new_rows n JOIN old_rows o ON o.tenant_id = n.tenant_id AND o.id = n.id
     WHERE ${on(c.live, 'n')} AND ${changed(c)}`,
  )}
  END IF;
  RETURN NULL;
END
$fn$;`;

/** The statement-level triggers that keep search_counts for table `t`, counted as `c`. */
export const countTriggers = (t: string, c: Counted) => `${countFunction(t, c)}
CREATE TRIGGER ${t}_search_counts_insert AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_counts_${t}();
CREATE TRIGGER ${t}_search_counts_update AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_counts_${t}();
CREATE TRIGGER ${t}_search_counts_delete AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_counts_${t}();`;

const triggers = TABLES.map((t) => countTriggers(t, COUNTED[t]!)).join('\n');

/** Adds the documents already stored in the given tables to search_counts. */
export const backfillCounts = (counted: Record<string, Counted>) => {
  const docs = Object.entries(counted)
    .map(
      ([
        t,
        c,
      ]) => `SELECT tenant_id, ${on(c.app, 'x')} AS app_id, ${on(c.project, 'x')} AS project_id, '${c.kind}' AS kind,
          ${on(c.owners, 'x')} AS owners, search
       FROM ${t} x WHERE ${on(c.live, 'x')} AND search IS NOT NULL`,
    )
    .join('\n  UNION ALL ');
  return `INSERT INTO search_counts (tenant_id, app_id, project_id, kind, owner_id, term, docs, len)
SELECT tenant_id, app_id, project_id, kind, owner_id, term, sum(docs), sum(len)
FROM (
  SELECT d.tenant_id, d.app_id, d.project_id, d.kind, w.owner_id, ''::text AS term, 1 AS docs, length(d.search) AS len
  FROM (${docs}) d CROSS JOIN LATERAL unnest(d.owners) AS w(owner_id)
  UNION ALL
  SELECT d.tenant_id, d.app_id, d.project_id, d.kind, w.owner_id, t.term, 1, 0
  FROM (${docs}) d CROSS JOIN LATERAL unnest(d.owners) AS w(owner_id)
  CROSS JOIN LATERAL unnest(tsvector_to_array(d.search)) AS t(term)
) x GROUP BY tenant_id, app_id, project_id, kind, owner_id, term;`;
};

export const sql = `
DROP TRIGGER episodes_search_stats ON episodes;
DROP TRIGGER episodes_search_stats_update ON episodes;
DROP TRIGGER atomic_facts_search_stats ON atomic_facts;
DROP TRIGGER atomic_facts_search_stats_update ON atomic_facts;
DROP TRIGGER agent_cases_search_stats ON agent_cases;
DROP TRIGGER agent_cases_search_stats_update ON agent_cases;
DROP TRIGGER agent_skills_search_stats ON agent_skills;
DROP TRIGGER agent_skills_search_stats_update ON agent_skills;
DROP TRIGGER kb_topics_search_stats ON kb_topics;
DROP TRIGGER kb_topics_search_stats_update ON kb_topics;
DROP FUNCTION engram_search_stats_trigger();
DROP FUNCTION engram_topic_search_stats();
DROP FUNCTION engram_search_count(text, text, text, text, tsvector, integer);
DROP TABLE search_stats;
DROP TABLE search_terms;

CREATE TABLE search_counts (
  tenant_id  text NOT NULL,
  app_id     text NOT NULL,
  project_id text NOT NULL,
  kind       text NOT NULL,
  owner_id   text NOT NULL,
  -- '' = the documents themselves (docs = live documents, len = their total length);
  -- otherwise a lexeme (docs = its document frequency).
  term       text NOT NULL,
  docs       bigint NOT NULL,
  len        bigint NOT NULL,
  PRIMARY KEY (tenant_id, app_id, project_id, kind, owner_id, term)
);

${triggers}

-- Rows written before this migration.
${backfillCounts(COUNTED)}
`;
