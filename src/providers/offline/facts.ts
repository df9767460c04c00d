/**
 * Atomic facts: the most informative sentences of each message, rewritten in third
 * person with the speaker's name and absolute dates, each tied to the message(s) it came
 * from. Short answers are paired with the question they answer; tool calls become
 * "X called tool(args), which returned ..." facts.
 */
import { mentionsDate } from '../../core/dates.js';
import type { ExtractedFact, ToolCall } from '../../core/ports.js';
import { WEEKDAYS } from '../../core/time.js';
import {
  ADVICE_VERBS,
  BIDDING,
  BIDDING_LEAD,
  type MessageView,
  OBJECT_WORDS,
  type Sentence,
} from './analyze.js';
import { linkGroups, linkOne } from './coreference.js';
import { EITHER, FEMALE, MALE, PET } from './nouns.js';
import { capitalize, contentStems, terminate, truncate } from './text.js';

/** Minimum score for a sentence to become a fact. */
export const FACT_MIN_SCORE = 4;
/** A message's best sentence becomes a fact from this score when nothing reaches the minimum. */
export const FALLBACK_MIN_SCORE = 2.5;
const MAX_FACT_CHARS = 400;
/**
 * A question and its answer in one fact, at most this long: an assistant's answer runs on
 * (the fact keeps its opening), and a reader packing whole facts into a context holds more
 * of them. A chat's are shorter (LoCoMo's development split: median 154 characters, 90th
 * percentile 231).
 */
const MAX_ANSWER_CHARS = 300;

/** An adverb that may open a statement before its subject ("Now I manage two designers"). */
const OPENING_ADVERB =
  /^(?:now|currently|recently|lately|finally|usually|often|sometimes|also|still|today|tonight|yesterday|nowadays|meanwhile|eventually),? /i;

/** Common words that open a sentence with "'s" without being a name ("Today's", "Everyone's"). */
const POSSESSIVE_WORDS = new Set(
  `today tomorrow yesterday tonight life everyone everybody someone somebody nobody anyone anybody one
it that what who there here let he she world year week month day night morning evening summer winter`.split(
    /\s+/,
  ),
);

/** A capitalised word, then a verb one person does to another: asking, telling, inviting. */
const NAME_BEFORE_VERB =
  /^[A-Z][a-z]+\s+(?:asked|told|texted|emailed|messaged|invited|offered|promised|suggested|recommended|convinced|persuaded|reminded|warned)\s/;
/** Openings that are no name before such a verb or a possessive: pronouns and the like. */
const NOT_A_NAME = new Set([...POSSESSIVE_WORDS, ...'they we you this these those people'.split(' ')]);

/** Lower-cases the first letter unless the sentence opens with a proper noun, "I" or an acronym. */
export function lowerFirst(s: string, proper: ReadonlySet<string> = new Set()): string {
  const first = /^[A-Za-z]+/.exec(s)?.[0] ?? '';
  if (!first || first === 'I' || /^[A-Z]{2,}/.test(first) || proper.has(first)) return s;
  // A capitalised possessive opening a sentence ("Carol's cat ...") is a name's, and so is a
  // capitalised word before a verb of asking or telling ("Rosalind asked me to ...").
  if ((/^[A-Z][a-z]+'s\b/.test(s) || NAME_BEFORE_VERB.test(s)) && !NOT_A_NAME.has(first.toLowerCase()))
    return s;
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Renders one sentence (plus its attached continuation) as a self-contained statement. */
export function statement(view: MessageView, idx: number): string {
  const s = view.sentences[idx] as Sentence;
  // A note's labelled line under its heading: "Notes for the move – Deadline: 30 June 2025".
  if (s.note)
    return terminate(`${s.note.heading ? `${s.note.heading} – ` : ''}${s.text.replace(/[.!?]+$/, '')}`);
  let body = s.text.replace(/[.!?]+$/, '');
  for (const c of view.sentences) {
    if (c.attachedTo === idx) body += `; ${lowerFirst(c.text.replace(/[.!?]+$/, ''), view.proper)}`;
  }
  body = body.replace(/\s+/g, ' ').replace(/!+/g, '.').trim();
  if (startsWithName(body, view.speaker)) return terminate(capitalize(body));
  if (s.draft && view.addressee) return terminate(`${view.speaker} drafted for ${view.addressee}: ${body}`);
  // "Ines and User are moving in together" names its subject, the speaker with her.
  const pair = /^([A-Z][a-z]+) and /.exec(body);
  if (pair && view.proper.has(pair[1]!) && startsWithName(body.slice(pair[0].length), view.speaker))
    return terminate(body);
  // "On 12 March 2024, Rosa went ..." already names its subject after the opener, as does
  // "In February 2024 Rosa finished ...", a date's opener without its comma.
  const at = body.indexOf(`, ${view.speaker}`);
  const opener = /^(?:on|in|at|for|since|after|before|when|while|during|because|as|if|once|with)\s/i.test(
    body,
  );
  // Not after a bidding: "Give me a reading plan, I want to read 30 books" asks (below).
  if (
    at > 0 &&
    at < (opener ? 120 : 60) &&
    startsWithName(body.slice(at + 2), view.speaker) &&
    (opener || !BIDDING.test(s.core))
  )
    return terminate(capitalize(body));
  // "Now User manages two designers": an adverb of time before its subject.
  const adverb = OPENING_ADVERB.exec(body);
  if (adverb && startsWithName(body.slice(adverb[0].length), view.speaker))
    return terminate(capitalize(body));
  // "On 3 May Rosa ...", and a short opener of when or where without its comma: "On Tuesdays
  // Rosa coaches ...", "At work Rosa ..." (not "With Rosa and ...": she is no subject there).
  const dated = body.indexOf(` ${view.speaker} `);
  const after = body.slice(dated + view.speaker.length + 2);
  if (
    dated > 0 &&
    dated < 40 &&
    /^(?:on|in|during|since|by|at|every|after|before)\s/i.test(body) &&
    (mentionsDate(body.slice(0, dated)) ||
      (!/[,;]/.test(body.slice(0, dated)) && !/^(?:and|or|with|&)\b/i.test(after)))
  )
    return terminate(capitalize(body));
  const rest = lowerFirst(body, view.proper);
  // Whom the sentence speaks to: her message's addressee, or the recipient of a text she pasted.
  const hearer = s.recipient !== undefined ? s.recipient : view.addressee;
  // An assistant's "Here are some podcasts: ..." offers them.
  const offer =
    /^here (?:are|is)\s+(?=(?:a|an|some|a few|several|two|three|four|five|six|\d+|the|my|a couple of)\b)/i.exec(
      rest,
    );
  if (offer && view.msg.role === 'assistant')
    return terminate(capitalize(`${view.speaker} suggested ${rest.slice(offer[0].length)}`));
  // A bidding ("Write me a poem about the sea", "Ice your knees after long runs") is what the
  // speaker asked for or advised, not something said to be so.
  const bid =
    BIDDING.exec(s.core) ??
    (view.msg.role === 'assistant' && !view.proper.has(firstWord(s.core)) ? ORDER.exec(s.core) : null);
  if (bid) {
    // An assistant's imperative is advice whatever its verb ("Book the rooms early").
    const advice =
      (ADVICE.test(bid[2] ?? bid[3] ?? '') || view.msg.role === 'assistant') &&
      !/^\S+\s+(?:me|us)\b/i.test(s.core.replace(LEAD, '').replace(/^please\s+/i, ''));
    // In a text she pasted, what she asks of its recipient; of no one named, what she wrote.
    if (hearer === null && s.recipient !== undefined) return terminate(`${view.speaker} wrote: ${rest}`);
    // A person's imperative to an assistant is a request ("Add that I'm out on weekdays").
    const verb = !bid[1] && advice && !view.toAssistant ? 'advised' : 'asked';
    // "For longer trips, ask a friend ..." -> "advised User, for longer trips, to ask a friend ..."
    const lead = LEAD.exec(rest)?.[0] ?? '';
    const whom = `${hearer ? ` ${hearer}` : ''}${lead ? `, ${lead.trim()}` : ''}`;
    // "Don't touch ..." -> "asked User not to touch ...", "Never ..." -> "never to ...".
    const what = rest
      .slice(lead.length)
      .replace(/^please\s+/i, '')
      .replace(LEAD_WORDS, '')
      .replace(/^(?:don't|do not)\s+/i, 'not to ')
      .replace(/^never\s+/i, 'never to ');
    const to = /^(?:not|never) to /.test(what) ? '' : 'to ';
    return terminate(capitalize(`${view.speaker} ${verb}${whom} ${to}${what}`));
  }
  if (s.secondPerson && hearer) return terminate(capitalize(`${view.speaker} told ${hearer} that ${rest}`));
  return terminate(capitalize(`${view.speaker} said that ${rest}`));
}

/**
 * BIDDING's verbs that give advice ("Try a foam roller", "Ice your knees"): the speaker
 * advised, unless asking for herself ("Try me"); with the others ("Write me a poem", "Check
 * out this pic") the speaker asked.
 */
const ADVICE = new RegExp(`^(?:try|avoid|consider|${ADVICE_VERBS})$`, 'i');

/**
 * Words that open a sentence without being a verb in the imperative: pronouns, determiners,
 * prepositions, conjunctions, question words, auxiliaries, adverbs and interjections.
 */
const NOT_A_VERB =
  'i|you|he|she|it|we|they|this|that|these|those|there|here|a|an|the|my|your|his|her|its|our|their|what|which|who|whom|whose|when|where|why|how|whatever|whichever|whoever|if|because|since|although|though|while|once|as|so|and|or|but|nor|yet|for|of|in|on|at|by|with|from|into|to|after|before|during|until|about|above|below|over|under|between|through|without|within|is|are|was|were|be|been|am|do|does|did|have|has|had|can|could|will|would|shall|should|may|might|must|not|no|yes|yeah|ok|okay|oh|well|sure|thanks|thank|today|tomorrow|yesterday|tonight|sometimes|maybe|perhaps|otherwise|however|also|then|each|every|all|both|either|neither|some|any|many|much|more|most|few|one|two|three|other|another|such|even|only|just|still|again|always|never|often|usually|very|too|really|least|overall|instead|meanwhile|hi|hello|hey|great|good|nice|wow|congratulations|congrats|sorry|last|next|first|later|soon|now|everyone|everything|someone|something|nobody|nothing|anyone|anything';

/** Words that may open an imperative before its verb ("Then whisk ...", "Just add ..."). */
const LEAD_WORD = 'then|first|next|finally|also|just';

/**
 * An assistant's sentence opening with any verb in the imperative ("Shake it in a jar",
 * "Freeze what you won't use", "Then whisk the oil in", "Gently press the dough"), after an
 * adverb or not: a word that is no closed-class word (NOT_A_VERB), no proper noun and no
 * form ending in a plural's -s, -ed, -ing or an adverb's -ly ("press", "apply" and "fly" are
 * verbs), followed by the start of an object (not a gerund: "Batch cooking on Sundays
 * helps") and no verb of a subject ("Coffee this morning was great"). Its groups stand where
 * BIDDING's do: the first (empty here) for "please", the second for the verb.
 */
const ORDER = new RegExp(
  `^(?:${BIDDING_LEAD})?(?:(?:${LEAD_WORD}|[a-z]+ly)\\s+)?()(?!(?:${NOT_A_VERB})\\b)([a-z]+)(?<![^su]s|ed|ing|(?<!p|f|re)ly)\\s+(?!.*\\b(?:was|were)\\b)(?!(?:\\S+\\s+){0,3}(?:is|are|has|have|had)\\b)(?:${OBJECT_WORDS})\\b`,
  'i',
);

const firstWord = (text: string) => /^[A-Za-z]+/.exec(text.replace(LEAD_WORDS, ''))?.[0] ?? '';
const LEAD_WORDS = new RegExp(`^(?:${LEAD_WORD})\\s+`, 'i');
const LEAD = new RegExp(`^${BIDDING_LEAD}`, 'i');

function startsWithName(text: string, speaker: string): boolean {
  return text.startsWith(`${speaker} `) || text.startsWith(`${speaker}'s `);
}

/**
 * A message's sentences that may become a fact, with their scores, best first: no filler, no
 * question, no continuation of another, and no acknowledgement of an assistant's ("Got it, a
 * tent for two." says nothing of its own).
 */
function candidates(view: MessageView): { s: Sentence; i: number; score: number }[] {
  return view.sentences
    .map((s, i) => ({ s, i, score: s.score + attachedBonus(view, i) }))
    .filter(
      ({ s }) => !s.filler && !s.question && s.attachedTo < 0 && !(s.ack && view.msg.role === 'assistant'),
    )
    .sort((a, b) => b.score - a.score || a.i - b.i);
}

/** Indices of a message's sentences worth a fact, best first, at most `max`. */
export function factSentences(view: MessageView, max: number, minScore = FACT_MIN_SCORE): number[] {
  const scored = candidates(view);
  const picked = scored.filter((x) => x.score >= minScore).slice(0, max);
  // Every message with something to say gets at least its best sentence.
  if (picked.length === 0 && scored[0] && scored[0].score >= FALLBACK_MIN_SCORE && max > 0)
    picked.push(scored[0]);
  return picked.map((x) => x.i);
}

function attachedBonus(view: MessageView, idx: number): number {
  return view.sentences.some((c) => c.attachedTo === idx) ? 1 : 0;
}

/** A remark after a question, at most this many words, still leaves the question to answer. */
const AFTER_QUESTION_WORDS = 8;

/** The question another speaker asked just before this message, if any. */
function precedingQuestion(
  views: readonly MessageView[],
  i: number,
): { view: MessageView; text: string } | null {
  const me = views[i];
  for (let j = i - 1; j >= 0 && j >= i - 2; j--) {
    const p = views[j];
    if (!p || p.msg.role === 'tool' || !me) continue;
    if (p.msg.sender_id === me.msg.sender_id) return null;
    // The question is the message's last sentence, or the last before a short remark that
    // goes with it ("How do I fix a leaky tap? It drips all night.").
    const said = p.sentences.filter((s) => !s.filler);
    const at = said.findLastIndex((s) => s.question);
    const last = said[at];
    // What she told in the question's own sentence ("..., he's turning 6?") comes after it.
    const after = said.slice(at + 1).filter((s) => !s.withAsk);
    // A remark after it leaves only a question of some substance to answer ("New shoes?
    // Nice." asks too little to stand for the reply).
    const stems = last ? contentStems(last.core).length : 0;
    if (
      last &&
      stems > 0 &&
      (after.length === 0 ||
        (after.length === 1 && stems >= 3 && after[0]!.core.split(/\s+/).length <= AFTER_QUESTION_WORDS))
    )
      return { view: p, text: last.text };
    return null;
  }
  return null;
}

/**
 * Sentences answering a question: the first informative one (past an acknowledgement) when it
 * is short or has no subject of its own ("Almost ten weeks now!"), plus the next one when the
 * first is very short and the next does not change the subject.
 */
function answerIndices(view: MessageView): number[] {
  let idx = view.sentences.findIndex((s) => !s.filler);
  // An acknowledgement ("Got it, a tent for two.") is not the answer when a statement follows it.
  const after = view.sentences[idx + 1];
  if (view.sentences[idx]?.ack && after && !after.filler && !after.question) idx++;
  const s = view.sentences[idx];
  if (!s || s.question) return [];
  const words = s.core.split(/\s+/).length;
  if (s.firstPerson && words > 8) return [];
  const listed = listedAfter(view, idx);
  if (listed.length) return [idx, ...listed];
  // "Plenty of plants do. Here are some options:" then the options.
  const announced = listedAfter(view, idx + 1);
  if (announced.length) return [idx, idx + 1, ...announced];
  const next = view.sentences[idx + 1];
  // ... unless the next one changes the subject ("Happy for her. By the way, I'm ...").
  if (words < 6 && next && !next.filler && !next.question && next.attachedTo < 0 && !next.shift)
    return [idx, idx + 1];
  return [idx];
}

/** A sentence that announces what follows it ("Here are three options:", a note's heading). */
const announces = (s: Sentence) => /:\s*$/.test(s.core);

/** Items an answer lists after announcing them, at most this many. */
const MAX_LISTED = 6;

/**
 * The items that follow a sentence announcing a list ("Here are five quick dinners:" then
 * "Chickpea curry with rice." ...): the sentences after it up to a question, a filler, the
 * next announcement or MAX_LISTED. An answer that stops at its announcement says nothing.
 */
function listedAfter(view: MessageView, idx: number): number[] {
  const first = view.sentences[idx];
  if (!first || !announces(first)) return [];
  const out: number[] = [];
  for (let j = idx + 1; j < view.sentences.length && out.length < MAX_LISTED; j++) {
    const s = view.sentences[j] as Sentence;
    // A drafted letter is no list: its sentences are facts of their own (statement).
    if (s.question || s.filler || s.shift || s.draft || announces(s)) break;
    out.push(j);
  }
  return out;
}

/**
 * An item said in an answer: its head (before " - " or ": "; the whole item after the label
 * of a plan's part, "Weeks 1-4: ..."), at most this many characters.
 */
const ITEM_CHARS = 60;
/** The label of a plan's part: "Weeks 1-4", "Day 3", "Step 2", "Monday", "Evening". */
const PART =
  /^(?:(?:days?|weeks?|months?|steps?|phases?|stages?|parts?|levels?|rounds?|sessions?)\s+\d[\d\s–-]*|(?:mon|tues|wednes|thurs|fri|satur|sun)day|morning|afternoon|evening|night|breakfast|lunch|dinner)$/i;
/** The listed items of an answer stop adding once it is this long. */
const LISTED_CHARS = 240;

/**
 * The answer's sentences as one text. An announced list's items follow its colon, "; "
 * between them, each by its head ("Snake plant - tolerant of low light ..." -> "snake plant"),
 * until the answer is LISTED_CHARS long: the fact names what was offered and stays short
 * enough that a context holds many.
 */
function answerOf(view: MessageView, ans: readonly number[]): string {
  const at = ans.findIndex((a) => announces(view.sentences[a]!));
  const said = (xs: readonly number[]) => xs.map((a) => answerText(view, a)).join(' ');
  if (at < 0 || at === ans.length - 1) return said(ans);
  let text = said(ans.slice(0, at + 1)).replace(/[.!?]+$/, '');
  let sep = ': ';
  for (const a of ans.slice(at + 1)) {
    if (text.length >= LISTED_CHARS) break;
    const item = answerText(view, a).replace(/[.!?]+$/, '');
    const head = item.split(/\s[-–—]\s|:\s/)[0] ?? '';
    // A label of a plan's part ("Weeks 1-4: hiragana and katakana", "Monday: rest") is
    // structure, not what is offered: its words follow it.
    text += `${sep}${truncate(lowerFirst(PART.test(head) ? item : head, view.proper), ITEM_CHARS)}`;
    sep = '; ';
  }
  return `${text}.`;
}

/** The answer sentence (and its continuation) in third person, without reporting frame. */
function answerText(view: MessageView, idx: number): string {
  const s = view.sentences[idx] as Sentence;
  let body = s.text.replace(/[.!?]+$/, '');
  for (const c of view.sentences) {
    if (c.attachedTo === idx) body += `; ${lowerFirst(c.text.replace(/[.!?]+$/, ''), view.proper)}`;
  }
  return terminate(capitalize(body.replace(/\s+/g, ' ').replace(/!+/g, '.').trim()));
}

/** "Helper called the search_flights tool (from: Lisbon, to: Oslo)", at most `maxPairs` arguments. */
export function calledTool(speaker: string, call: ToolCall, maxPairs?: number): string {
  const args = describeArgs(call.function.arguments, maxPairs);
  return capitalize(`${speaker} called the ${call.function.name} tool${args ? ` (${args})` : ''}`);
}

/** Arguments of a tool call as "key: value" pairs, values cut short. */
export function describeArgs(raw: string, maxPairs = 4): string {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.entries(parsed as Record<string, unknown>)
        .slice(0, maxPairs)
        .map(([k, v]) => `${k}: ${truncate(typeof v === 'string' ? v : JSON.stringify(v), 40)}`)
        .join(', ');
    }
  } catch {
    // not JSON: fall through to the raw text
  }
  return truncate(raw.replace(/\s+/g, ' ').trim(), 80);
}

/** First line of a tool result, cut short. */
export function describeResult(content: string, max = 160): string {
  return truncate(content.replace(/\s+/g, ' ').trim(), max);
}

/** Facts from tool calls: one per call, with its result when a tool message answered it. */
function toolFacts(views: readonly MessageView[], i: number): ExtractedFact[] {
  const v = views[i];
  if (!v?.msg.tool_calls?.length) return [];
  const out: ExtractedFact[] = [];
  for (const call of v.msg.tool_calls.slice(0, 3)) {
    const result = views.find((r) => r.msg.role === 'tool' && r.msg.tool_call_id === call.id);
    let content = calledTool(v.speaker, call);
    const ids = [v.msg.id];
    if (result?.msg.content.trim()) {
      content += `, which returned: ${describeResult(result.msg.content)}`;
      ids.push(result.msg.id);
    }
    out.push({ content: terminate(truncate(content, MAX_FACT_CHARS)), message_ids: ids });
  }
  return out;
}

/** A person's message may give `perMessage` facts for each this many of its sentences. */
const SENTENCES_PER_CAP = 4;

/**
 * Sentences of a person's long message beyond its best `chosen` that say something about the
 * person ("my partner gets seasick", "we booked a cabin", "I've been learning Norwegian"),
 * best first, so that what a long message mentions in passing is each a fact; at most
 * `perMessage` for each 4 of its sentences in all. A pasted text (an article to summarise)
 * speaks of others and adds none.
 */
function ownMentions(view: MessageView, perMessage: number, chosen: ReadonlySet<number>): number[] {
  const room = perMessage * Math.ceil(view.sentences.length / SENTENCES_PER_CAP) - chosen.size;
  if (view.msg.role === 'assistant' || room <= 0) return [];
  return candidates(view)
    .filter(
      ({ s, i, score }) =>
        !chosen.has(i) && score >= FACT_MIN_SCORE && (s.firstPerson || /\b(?:my|our)\b/i.test(s.core)),
    )
    .slice(0, room)
    .map((x) => x.i);
}

/**
 * "my manager Dana", "our dog Miso", "my older sister Priya Shah", "my college friend Priyanka",
 * "my doctor, Dr. Patel": a person or pet of the speaker's (after one word that says which, or
 * none) and the name that follows the relation (group 1, group 2).
 */
const NAMED_ONE = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur)\\s+(?:[a-z]+\\s+)?(${FEMALE}|${MALE}|${EITHER}|${PET})\\s*,?\\s+((?:(?:Mr|Mrs|Ms|Miss|Dr|Prof)\\.?\\s+)?[A-Z][a-z]+(?:\\s+[A-Z][a-z]+)?)\\b`,
  'g',
);
/** Capitalised words after a relation that are no name ("my sister Monday", "my dog And"). */
const NOT_NAMES = new Set([
  ...'I And The But So Then This That Today Tonight Tomorrow Yesterday Last Next'.split(' '),
  ...WEEKDAYS,
]);
/** Names said with a relation, kept per message as facts of their own. */
const MAX_NAMED = 2;

/**
 * The names a person gives the people and pets of her life in passing ("write a letter to my
 * manager Dana"), each as a fact of its own: "User's manager is named Dana." A question
 * asks for the name ("What is my old manager's name?") while the message that gives it is
 * about something else; the short fact holds both the relation and "named".
 */
function namedOnes(v: MessageView): ExtractedFact[] {
  return namedRelations(v).map(({ text }) => ({ content: text, message_ids: [v.msg.id] }));
}

/** A relation of the speaker's named in a message: "User's manager is named Dana.", and whether a pet's. */
export interface NamedRelation {
  text: string;
  name: string;
  pet: boolean;
}

/** The people and pets a message names with their relation to the speaker (NAMED_ONE), at most MAX_NAMED. */
export function namedRelations(v: MessageView): NamedRelation[] {
  const out: NamedRelation[] = [];
  for (const m of v.msg.content.matchAll(NAMED_ONE)) {
    const [, relation = '', name = ''] = m;
    if (NOT_NAMES.has(name.split(' ')[0]!)) continue;
    const kind = relation.toLowerCase();
    out.push({ text: `${v.speaker}'s ${kind} is named ${name}.`, name, pet: IS_PET.test(kind) });
    if (out.length >= MAX_NAMED) break;
  }
  return out;
}
const IS_PET = new RegExp(`^(?:${PET})$`);

/** Atomic facts for a segment (at most `perMessage` of each message, more of a person's long one: ownMentions), deduplicated. */
export function extractFacts(views: readonly MessageView[], perMessage = 3): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  views.forEach((v, i) => {
    if (v.msg.role === 'tool') return;
    const base = v.msg.role === 'assistant' ? Math.min(2, perMessage) : perMessage;
    const chosen = new Set(factSentences(v, base));
    for (const x of ownMentions(v, perMessage, chosen)) chosen.add(x);
    // A note's labelled lines are each a fact; its heading is said in them.
    const labelled = v.sentences.flatMap((s, k) => (s.note ? [k] : []));
    if (labelled.length) {
      for (const i of [...chosen]) if (announces(v.sentences[i]!)) chosen.delete(i);
      for (const i of labelled) chosen.add(i);
    }
    const max = Math.max(base, chosen.size);
    const q = precedingQuestion(views, i);
    const ans = q ? answerIndices(v) : [];
    if (q && ans.length > 0) {
      for (const a of ans) chosen.delete(a);
      const answer = answerOf(v, ans);
      const asked = q.text.replace(/\s+/g, ' ').trim();
      const content = `Asked by ${q.view.speaker} "${truncate(asked, 160)}", ${v.speaker} answered: ${answer.replace(/\.$/, '')}`;
      facts.push({
        content: terminate(truncate(content, MAX_ANSWER_CHARS)),
        message_ids: [q.view.msg.id, v.msg.id],
      });
      if (chosen.size >= max) chosen.delete([...chosen].pop() as number);
    }
    for (const idx of [...chosen].sort((a, b) => a - b)) {
      facts.push({ content: truncate(statement(v, idx), MAX_FACT_CHARS), message_ids: [v.msg.id] });
    }
    facts.push(...toolFacts(views, i));
    if (v.msg.role === 'user' && perMessage > 0) facts.push(...namedOnes(v));
  });
  return linkOne(linkGroups(dedupe(facts), views), views);
}

const NEAR_WINDOW = 60;

/** Merges facts with the same wording or nearly the same content words. */
export function dedupe(facts: readonly ExtractedFact[]): ExtractedFact[] {
  type Entry = { fact: ExtractedFact; key: string; stems: Set<string>; numbers: string };
  const out: Entry[] = [];
  const byKey = new Map<string, Entry>();
  for (const fact of facts) {
    const key = fact.content
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
    const stems = new Set(contentStems(fact.content));
    const numbers = numbersOf(fact.content);
    // Exact twins anywhere; near twins among the recent facts (repeats are local in a chat),
    // with the same numbers: "Ann's son is 8, not 6" corrects "Ann's son is 6", no repeat.
    const exact = byKey.get(key);
    const twin =
      exact ?? out.slice(-NEAR_WINDOW).find((o) => o.numbers === numbers && jaccard(o.stems, stems) >= 0.85);
    if (twin) {
      for (const id of fact.message_ids)
        if (!twin.fact.message_ids.includes(id)) twin.fact.message_ids.push(id);
      continue;
    }
    const entry = {
      fact: { content: fact.content, message_ids: [...fact.message_ids] },
      key,
      stems,
      numbers,
    };
    out.push(entry);
    byKey.set(key, entry);
  }
  return out.map((o) => o.fact);
}

/** The numbers a text holds, sorted and joined: the same for two texts that state the same amounts. */
const numbersOf = (text: string) => [...new Set(text.match(/\d+(?:[.,]\d+)*/g) ?? [])].sort().join(' ');

function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}
