import { COUNTED, type Counted, createFunction, on, unlessLive } from './0011_search_counts.js';

/**
 * Postings for the keyword route: per tenant, scope, kind, owner and lexeme, one row per
 * live document holding the lexeme, with what BM25 needs of it (tf: occurrences weighted by
 * field, A 3, B 2, C and D 1; dl: the document's distinct lexemes) and an order key,
 * `impact`, the document's BM25 term weight at a fixed reference length per kind. The
 * primary key (…, owner_id, term, impact, doc_id) INCLUDE (tf, dl) lets a search read the
 * documents of one query term best first, a bounded number of them, from the index alone,
 * and score them exactly with the owner's current statistics (search_counts), instead of
 * unnesting every matching document's tsvector.
 *
 * impact depends only on the row (not on statistics that move), so a deleted or edited
 * document's postings are found again by their full key. Kept by statement-level triggers
 * on the memory tables beside search_counts' (same rows counted: live documents, for each
 * owner): an insert adds the statement's postings in one INSERT, a delete removes them in
 * one DELETE, an update of the text, owners, scope or liveness does both.
 */
export const REFERENCE_LENGTH: Record<string, number> = {
  episode: 100,
  fact: 10,
  agent_case: 40,
  agent_skill: 60,
};
export const K1 = 1.2;
export const B = 0.75;
const TABLES = Object.keys(COUNTED).filter((t) => COUNTED[t]!.kind in REFERENCE_LENGTH);

/** A counted table with the reference length its impacts are computed at. */
export type Posted = Counted & { reference: number };
const posted = (t: string): Posted => ({ ...COUNTED[t]!, reference: REFERENCE_LENGTH[COUNTED[t]!.kind]! });

/** The postings of the documents `src` (rows of alias d with id, search, owners and scope). */
const postings = (c: Posted, src: string) => {
  return `SELECT d.tenant_id, ${on(c.app, 'd')} AS app_id, ${on(c.project, 'd')} AS project_id,
       '${c.kind}'::text AS kind, w.owner_id, u.lexeme AS term,
       (x.tf * ${K1 + 1} / (x.tf + ${K1} * (${1 - B} + ${B} * length(d.search) / ${c.reference}.0)))::real AS impact,
       d.id AS doc_id, x.tf, length(d.search) AS dl
     FROM (${src}) d
     CROSS JOIN LATERAL unnest(${on(c.owners, 'd')}) AS w(owner_id)
     CROSS JOIN LATERAL unnest(d.search) AS u
     CROSS JOIN LATERAL (SELECT coalesce(sum(CASE wt WHEN 'A' THEN 3 WHEN 'B' THEN 2 ELSE 1 END), 0)::int AS tf
                         FROM unnest(u.weights) AS wt) x
     WHERE d.search IS NOT NULL`;
};

const COLUMNS = 'tenant_id, app_id, project_id, kind, owner_id, term, impact, doc_id, tf, dl';
const KEY = 'tenant_id, app_id, project_id, kind, owner_id, term, impact, doc_id';

const add = (c: Posted, src: string) => `
    INSERT INTO search_postings (${COLUMNS}) ${postings(c, src)};`;
const remove = (c: Posted, src: string) => `
    DELETE FROM search_postings s USING (${postings(c, src)}) p
    WHERE (${KEY.split(', ')
      .map((k) => `s.${k}`)
      .join(', ')}) = (${KEY.split(', ')
      .map((k) => `p.${k}`)
      .join(', ')});`;

/** Old and new rows of an UPDATE whose posted part (text, scope, owners, liveness) changed. */
const changed = (c: Counted) => {
  return [c.live, c.app, c.project, c.owners, '{r}.search']
    .map((e) => `(${on(e, 'n')}) IS DISTINCT FROM (${on(e, 'o')})`)
    .join(' OR ');
};

/**
 * The function behind table `t`'s postings triggers, counted as `c`; with `early` it
 * replaces the one of migration 0014 and returns at once when no row of the statement counts.
 */
export const postingFunction = (t: string, c: Posted, early = false) => {
  const moved = (a: 'o' | 'n', b: 'o' | 'n', rows: string) =>
    `SELECT ${a}.* FROM ${rows} ${a} JOIN ${b === 'o' ? 'old_rows' : 'new_rows'} ${b}
     ON ${b}.tenant_id = ${a}.tenant_id AND ${b}.id = ${a}.id WHERE ${on(c.live, a)} AND (${changed(c)})`;
  return `
${createFunction(early)} engram_search_postings_${t}() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN${unlessLive(c, early, 'new_rows')}${add(c, `SELECT * FROM new_rows n WHERE ${on(c.live, 'n')}`)}
  ELSIF TG_OP = 'DELETE' THEN${unlessLive(c, early, 'old_rows')}${remove(c, `SELECT * FROM old_rows o WHERE ${on(c.live, 'o')}`)}
  ELSE${unlessLive(c, early, 'old_rows', 'new_rows')}${remove(c, moved('o', 'n', 'old_rows'))}${add(c, moved('n', 'o', 'new_rows'))}
  END IF;
  RETURN NULL;
END
$fn$;`;
};

/** The statement-level triggers that keep the postings of table `t`, counted as `c`. */
export const postingTriggers = (t: string, c: Posted) => `${postingFunction(t, c)}
CREATE TRIGGER ${t}_search_postings_insert AFTER INSERT ON ${t} REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_postings_${t}();
CREATE TRIGGER ${t}_search_postings_update AFTER UPDATE ON ${t} REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_postings_${t}();
CREATE TRIGGER ${t}_search_postings_delete AFTER DELETE ON ${t} REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION engram_search_postings_${t}();`;

const triggers = TABLES.map((t) => postingTriggers(t, posted(t))).join('\n');

/** The postings of the documents already stored in table `t`, counted as `c`. */
export const backfillPostings = (t: string, c: Posted) =>
  `INSERT INTO search_postings (${COLUMNS}) ${postings(c, `SELECT * FROM ${t} x WHERE ${on(c.live, 'x')}`)};`;

const backfill = TABLES.map((t) => backfillPostings(t, posted(t))).join('\n');

export const sql = `
CREATE TABLE search_postings (
  tenant_id  text NOT NULL,
  app_id     text NOT NULL,
  project_id text NOT NULL,
  kind       text NOT NULL,
  owner_id   text NOT NULL,
  term       text NOT NULL,
  impact     real NOT NULL,
  doc_id     text NOT NULL,
  tf         integer NOT NULL,
  dl         integer NOT NULL,
  PRIMARY KEY (${KEY}) INCLUDE (tf, dl)
);

${triggers}

-- Rows written before this migration.
${backfill}
`;
