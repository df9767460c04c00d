import type { Sql } from '../../core/db.js';
import { NUMERAL_I } from '../../core/numerals.js';
import { LIVE_MESSAGES } from '../memory/stored-message.js';
import { lowerHits, type PeopleHits } from './people.js';

/**
 * A question a person asks about herself ("where do I work?", "what's my dog called?") is
 * answered by what she said, not by what an assistant said back: an assistant's long,
 * on-topic replies ("many nurses eat a light meal before work") share the question's words
 * more often than the passing mention that answers it ("I start a new job as a nurse at
 * Riverside Hospital"). For such a question, a fact that rests on a turn no user wrote (an
 * assistant's or a tool's) and such a turn count at ASSISTANT_WEIGHT of their score, and
 * each episode's facts and the turns are re-sorted (people.ts lowerHits). A question that
 * speaks to or of the assistant ("what did you suggest for my trip?") keeps every score.
 */
export const ASSISTANT_WEIGHT = 0.8;

/**
 * Openings that ask the assistant for something now and say nothing about whom the question
 * is about ("can you", "do you remember", "remind me"): taken off before the question's
 * persons are read, repeatedly ("hey, could you tell me ..."). "Could you recommend a film
 * for me?" is then about her (her tastes answer it), "what did you recommend?" about the
 * assistant.
 */
const OPENING = new RegExp(
  '^\\s*(?:' +
    [
      '(?:hey|hi|hello|ok|okay|so|please|quick question)\\b',
      '(?:can|could|would|will) you(?: please| quickly| kindly)?\\b',
      '(?:do|did) you (?:remember|know|recall)\\b',
      '(?:please )?(?:tell|remind|show|give|help) me\\b',
    ].join('|') +
    ')[\\s,:;!?.-]*',
  'i',
);
const FIRST_PERSON = /\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves)\b/i;
/**
 * Capitals that are not the first person: "US", the country (unless the whole question is
 * in capitals, where it may be "us"), and the numeral "I" after a word that numbers
 * ("World War I", "Part I", "Type I": core/numerals.ts).
 */
const COUNTRY = /\bUS\b/g;
const SPOKEN_TO = /\b(?:you|your|yours|yourself|assistant|chatbot|bot)\b/i;
/**
 * A "thank you" standing on its own ("Where do I work? Thank you!", "..., thank you so
 * much"): politeness, as "thanks" is, not a question about the assistant. Taken off (the
 * punctuation before it kept) before the question is read for the assistant.
 */
const THANK_YOU =
  /(^|[.!?,;:]\s*)thank\s+you(?:\s+(?:so|very)\s+much|\s+a\s+lot|\s+kindly|\s+again|\s+in\s+advance)?(?=[^\p{L}\p{N}]*(?:[.!?,;:]|$))/giu;

/** True for a question in the first person that does not speak to or of the assistant. */
export function asksAboutSelf(query: string): boolean {
  let q = query;
  for (let rest = q.replace(OPENING, ''); rest !== q; rest = q.replace(OPENING, '')) q = rest;
  let persons = q.replace(NUMERAL_I, ' ');
  if (/\p{Ll}/u.test(q)) persons = persons.replace(COUNTRY, ' ');
  return FIRST_PERSON.test(persons) && !SPOKEN_TO.test(q.replace(THANK_YOU, '$1'));
}

/**
 * The roles of the turns some facts rest on, as far as they were read: `checked`, every such
 * turn's id; `notUser`, those of them no user wrote (an assistant's or a tool's).
 */
export interface SourceRoles {
  checked: Set<string>;
  notUser: Set<string>;
}

/**
 * The ids among the sources of the answer's facts of live messages no user wrote (role
 * assistant or tool): one indexed read by primary key, for the ids neither the answer's own
 * turns nor the roles read while ranking (`known`, toldByUser) tell.
 */
export async function notUsersTurns(
  q: Sql,
  tenantId: string,
  hits: PeopleHits,
  known?: SourceRoles,
): Promise<Set<string>> {
  const out = new Set(known?.notUser);
  const told = new Set(known?.checked);
  for (const m of [...hits.messages, ...hits.unprocessed]) {
    told.add(m.id);
    if (m.role !== 'user') out.add(m.id);
  }
  const ask = [
    ...new Set(hits.episodes.flatMap((e) => e.atomic_facts.flatMap((f) => f.source_message_ids))),
  ].filter((id) => !told.has(id));
  if (!ask.length) return out;
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM ${LIVE_MESSAGES} m WHERE tenant_id = $1
       AND id = ANY (ARRAY(SELECT jsonb_array_elements_text($2::jsonb))) AND role <> 'user'`,
    [tenantId, JSON.stringify(ask)],
  );
  for (const r of rows) out.add(r.id);
  return out;
}

/**
 * Of the given episodes, those that hold something the user said herself (`told`): a fact
 * resting on her turns alone. A conversation of requests and answers ("How do I sharpen a
 * kitchen knife?" and the reply) tells nothing about her, and holds none. With the roles of
 * the turns their facts rest on, which the answer's own step reads again otherwise
 * (focusOnOwnWords). One statement: the episodes' facts by episode, their sources' roles by
 * primary key (on the 100,000-episode PostgreSQL bench store, 50 episodes' 173 facts: 2.8 ms
 * warm).
 */
export async function toldByUser(
  q: Sql,
  tenantId: string,
  episodeIds: readonly string[],
): Promise<{ told: Set<string>; roles: SourceRoles }> {
  if (!episodeIds.length) return { told: new Set(), roles: { checked: new Set(), notUser: new Set() } };
  // The sources' roles by primary key, for the ids listed (ANY of an array): as a join or an
  // anti-join the planner, which expects almost no turn not a user's, scans every turn.
  const [row] = await q.query<{ told: string[] | null; checked: string[] | null; not_user: string[] }>(
    `WITH f AS MATERIALIZED (SELECT episode_id, source_message_ids FROM atomic_facts
       WHERE tenant_id = $1 AND episode_id IN (SELECT jsonb_array_elements_text($2::jsonb)) AND deleted_at IS NULL
         AND jsonb_array_length(source_message_ids) > 0),
     n AS MATERIALIZED (SELECT ARRAY(SELECT m.id FROM ${LIVE_MESSAGES} m WHERE m.tenant_id = $1 AND m.role <> 'user'
       AND m.id = ANY (ARRAY(SELECT DISTINCT jsonb_array_elements_text(source_message_ids) FROM f))) AS ids)
     SELECT (SELECT jsonb_agg(DISTINCT f.episode_id) FROM f WHERE NOT f.source_message_ids ?| n.ids) AS told,
       (SELECT jsonb_agg(DISTINCT s.id) FROM f, jsonb_array_elements_text(f.source_message_ids) AS s(id)) AS checked,
       n.ids AS not_user
     FROM n`,
    [tenantId, JSON.stringify(episodeIds)],
  );
  return {
    told: new Set(row?.told ?? []),
    roles: { checked: new Set(row?.checked ?? []), notUser: new Set(row?.not_user ?? []) },
  };
}

/**
 * For a question the asker asks about herself (asksAboutSelf), the hits with the facts that
 * rest on a turn no user wrote, and such turns, at `weight` of their score, re-sorted; any
 * other question's hits as they are. `known`: the roles already read while ranking.
 */
export async function focusOnOwnWords<T extends PeopleHits>(
  q: Sql,
  tenantId: string,
  query: string,
  hits: T,
  known?: SourceRoles,
  weight = ASSISTANT_WEIGHT,
): Promise<T> {
  if (!asksAboutSelf(query)) return hits;
  const notUsers = await notUsersTurns(q, tenantId, hits, known);
  if (!notUsers.size) return hits;
  const notHers = (f: { source_message_ids: string[] }) =>
    f.source_message_ids.some((id) => notUsers.has(id));
  const lowered = lowerHits(hits, { fact: notHers, turn: (m) => m.role !== 'user' }, weight);
  // Beyond its best, an episode keeps only what she told: an assistant's advice after her own
  // words filled a reader's context before the next episode's were reached.
  return {
    ...lowered,
    episodes: lowered.episodes.map((e) => ({
      ...e,
      atomic_facts: e.atomic_facts.filter((f, j) => j === 0 || !notHers(f)),
    })),
  };
}
