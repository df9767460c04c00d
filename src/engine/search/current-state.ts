import { ROLE_NAMES } from '../../core/senders.js';
import { MONTHS, WEEKDAYS } from '../../core/time.js';
import { LIVE_MESSAGES } from '../memory/stored-message.js';
import { capitalisedWords } from '../text.js';
import type { PreparedQuery, RankDeps } from './hybrid.js';
import { andQuery, orQuery } from './keyword.js';
import { askedWord, changeLexemes, currentStateLexemes, kindWords, slotLexemes } from './lexicon.js';
import { bind, factTarget, type SearchScope } from './scope.js';

/**
 * The answer to a question about how things are now ("where does she live now", "which ORM do
 * we use now") is the newest memory of it, not the best-matching one: two rules over the
 * facts a search found, run in turn (episodes.ts rankEpisodes).
 *
 * - newestWins: among the facts of the slot the question names, the newest wins.
 * - changedSince: a later fact that tells a change ("switched", "moved", "replaced") of a
 *   thing the best answer names wins, though it shares no word with the question ("we use
 *   Drizzle as the ORM", later "we switched from Drizzle to Kysely").
 */

/** The question and whether the asker asks about herself (own-words.ts asksAboutSelf). */
export interface CurrentQuestion {
  question: PreparedQuery;
  aboutSelf: boolean;
}

/**
 * What the search found: fact and episode scores (changed in place), each fact's episode, and
 * the route's score cap (hybrid, vector and agentic scores are at most 1).
 */
export interface Ranked {
  facts: Map<string, number>;
  own: Map<string, number>;
  parent: Map<string, string>;
  cap: number;
}

/** Both rules, in turn, for a question about how things are now. */
export async function currentStateWins(
  d: RankDeps,
  scope: SearchScope,
  q: CurrentQuestion,
  r: Ranked,
): Promise<void> {
  await newestWins(d, scope, q, r);
  await changedSince(d, scope, q, r);
}

/**
 * A fact resting on a turn no user wrote (`f`): for a question the asker asks about herself,
 * what an assistant said is no current answer of hers ("What shifts do I work now?": not the
 * assistant's later advice on night shifts).
 */
const BY_USER = ` AND NOT EXISTS (SELECT 1 FROM ${LIVE_MESSAGES} m WHERE m.tenant_id = $1 AND m.role <> 'user'
   AND m.id = ANY (ARRAY(SELECT jsonb_array_elements_text(f.source_message_ids))))`;

/** Facts within this share of the best fact's score compete as answers to a current-state question. */
export const SLOT_MARGIN = 0.8;

/**
 * For a question about how things are now ("where does she live now"): among the facts
 * that answer it, the newest wins. The competing facts are those of the slot the question
 * names (lexicon.ts: any fact about living or moving, for "live"), or, when it names
 * none, those scoring within SLOT_MARGIN of the best. The newest takes the best fact's
 * score (plus a hair), and its episode the best own score among the episodes of the facts
 * weighed (plus a hair: an older episode whose own score is its rank does not tie with it):
 * with a slot, every fact the question matches, so the current answer's episode comes first;
 * without one, the competitors'. So an older fact of the same slot no longer outranks the
 * current one.
 */
async function newestWins(d: RankDeps, scope: SearchScope, q: CurrentQuestion, r: Ranked): Promise<void> {
  const { question, aboutSelf } = q;
  const { facts, own, parent } = r;
  const best = Math.max(...facts.values());
  if (!(best > 0)) return;
  const terms = question.terms;
  const [kinds, state] = await Promise.all([kindWords(d.db), currentStateLexemes(d.db)]);
  // "What shifts do I work now?" asks about shifts, whatever kind its verb names (work: the
  // job): a word asked about that names no kind is the slot.
  const word = askedWord(question.text);
  const asked = word ? terms.find((t) => word.startsWith(t) && !kinds.has(t)) : undefined;
  const slot = asked ? [asked] : await slotLexemes(d.db, terms);
  // What else the question names ("where does Theo live now": Theo) every competitor holds
  // too, so the newest move of someone else is no answer. Beside a word asked about, the rest
  // is its verb ("work", "drive": the newest car need not be driven in its fact), and only
  // the names it uses (capitalised where no sentence opens: "What car does Theo drive now?").
  // "How much is my gym membership now?": "much" asks, no fact need hold it.
  const how = HOW_ASKS.exec(question.text)?.[1]?.toLowerCase();
  const asks = how ? HOW_LEXEMES[how] : undefined;
  const others = terms.filter((t) => !slot.includes(t) && !state.has(t) && t !== asks);
  const names = asked ? capitalisedWords(question.text) : [];
  const about = asked ? others.filter((t) => names.some((w) => w.startsWith(t))) : others;
  const close = [...facts]
    .filter(([, s]) => (slot.length ? s > 0 : s >= SLOT_MARGIN * best))
    .map(([id]) => id);
  if (close.length < 2) return;
  const params: unknown[] = [scope.tenantId, JSON.stringify(close)];
  let where = '';
  if (slot.length) where += ` AND search @@ $${params.push(orQuery(slot))}::tsquery`;
  if (about.length) where += ` AND search @@ $${params.push(andQuery(about))}::tsquery`;
  if (aboutSelf) where += BY_USER;
  const competing = await d.db.query<{ id: string }>(
    `SELECT id FROM atomic_facts f WHERE tenant_id = $1 AND id = ANY (ARRAY(SELECT jsonb_array_elements_text($2::jsonb)))${where}
     ORDER BY ts DESC, id DESC`,
    params,
  );
  const newest = competing[0]?.id;
  const episode = newest ? parent.get(newest) : undefined;
  if (competing.length < 2 || !newest || !episode) return;
  const context = Math.max(...close.map((id) => own.get(parent.get(id) ?? '') ?? 0));
  wins(r, newest, best, episode, context);
}

/** The word after "how" that asks for an amount, a frequency or a length ("how much", "how many"). */
const HOW_ASKS = /\bhow\s+(much|many|often|long|far)\b/i;
/** Their lexemes (the english stemmer's). */
const HOW_LEXEMES: Record<string, string> = {
  much: 'much',
  many: 'mani',
  often: 'often',
  long: 'long',
  far: 'far',
};

const HAIR = 1e-6;

/**
 * Puts `id`'s score a hair above `over`, within the route's range (`cap`: hybrid, vector and
 * agentic scores are at most 1); at the cap, the scores that would tie with it go a hair below.
 */
function lift(scores: Map<string, number>, id: string, over: number, cap: number): void {
  const top = Math.min(cap, over + HAIR);
  if (top < over + HAIR) for (const [k, v] of scores) if (k !== id && v >= top) scores.set(k, top - HAIR);
  scores.set(id, top);
}

/**
 * The current answer `fact` takes a hair over the best fact's score (`over`), and its episode
 * a hair over `context` (the own score of the episodes it competed with) unless it has more.
 */
function wins(r: Ranked, fact: string, over: number, episode: string, context: number): void {
  lift(r.facts, fact, over, r.cap);
  if ((r.own.get(episode) ?? 0) < context + HAIR) lift(r.own, episode, context, r.cap);
}

/** Words capitalised in a fact that name no thing: the roles' names, months and weekdays. */
export const NOT_THINGS = new Set(
  [...ROLE_NAMES.map(([, name]) => name), ...MONTHS, ...WEEKDAYS].map((w) => w.toLowerCase()),
);

/**
 * For a question about how things are now: a fact newer than the best answer that tells a
 * change (lexicon.ts CHANGE: "switched", "moved", "replaced", ...) of a thing the best
 * answer's episode names (a word capitalised inside a sentence that the question does not
 * use: "Drizzle" in "we use Drizzle as the ORM", asked "which ORM do we use now?") is the
 * current answer ("we switched from Drizzle to Kysely"), though it shares no word with the
 * question. Any of the owner's facts, found by the search or not: it takes the best fact's
 * score (plus a hair), and its episode the best fact's episode's own score. For a question
 * the asker asks about herself, not a change an assistant told. Two statements, for a
 * question about the current state only.
 */
async function changedSince(d: RankDeps, scope: SearchScope, q: CurrentQuestion, r: Ranked): Promise<void> {
  const { question, aboutSelf } = q;
  const { facts, own, parent } = r;
  let best: [string, number] | undefined;
  for (const [id, s] of facts)
    if (s > 0 && (!best || s > best[1] || (s === best[1] && id < best[0]))) best = [id, s];
  if (!best) return;
  // The things the best answer's episode names: "moved my tasks to Todoist" changes the app
  // of "using Notion for my to-do lists", which its episode's "thinking of switching to
  // Todoist" names. Not its speakers, by their ids or the names they gave ("so Mira leaves
  // early"): the person changes in every later fact told of her.
  const [row] = await d.db.query<{ content: string | null; speakers: string[] | null }>(
    `WITH b AS MATERIALIZED (SELECT episode_id FROM atomic_facts WHERE tenant_id = $1 AND id = $2),
     e AS (SELECT ep.sender_ids, ep.source_message_ids FROM episodes ep WHERE ep.tenant_id = $1
       AND ep.id = (SELECT episode_id FROM b))
     SELECT (SELECT string_agg(f.content, ' ') FROM atomic_facts f WHERE f.tenant_id = $1
         AND f.episode_id = (SELECT episode_id FROM b)) AS content,
       (SELECT jsonb_agg(DISTINCT s.name) FROM (SELECT unnest(e.sender_ids) AS name FROM e
         UNION SELECT m.sender_name FROM e, ${LIVE_MESSAGES} m WHERE m.tenant_id = $1
           AND m.id = ANY (ARRAY(SELECT jsonb_array_elements_text(e.source_message_ids)))
           AND m.sender_name IS NOT NULL) s) AS speakers`,
    [scope.tenantId, best[0]],
  );
  if (!row?.content) return;
  const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const asked = new Set(words(question.text));
  const speakers = new Set((row.speakers ?? []).flatMap(words));
  const things = [
    ...new Set(capitalisedWords(row.content).map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))),
  ].filter((w) => w.length > 1 && !NOT_THINGS.has(w) && !asked.has(w) && !speakers.has(w));
  if (!things.length) return;
  const change = await changeLexemes(d.db);
  // Any of the owner's facts (the request's filters apply), found or not by the search.
  const t = factTarget(scope);
  const p = bind(t);
  const byUser = aboutSelf ? BY_USER : '';
  const [newer] = await d.db.query<{ id: string; episode_id: string }>(
    `SELECT f.id, f.episode_id FROM ${t.from}
     WHERE ${t.where} AND f.ts > (SELECT b.ts FROM atomic_facts b WHERE b.tenant_id = $1 AND b.id = ${p.add(best[0])})
       AND f.search @@ to_tsquery('english', ${p.add(things.join(' | '))})
       AND f.search @@ ${p.add(orQuery(change))}::tsquery${byUser}
     ORDER BY f.ts DESC, f.id DESC LIMIT 1`,
    p.values,
  );
  if (!newer) return;
  parent.set(newer.id, newer.episode_id);
  wins(r, newer.id, best[1], newer.episode_id, own.get(parent.get(best[0]) ?? '') ?? 0);
}
