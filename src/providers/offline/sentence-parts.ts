/**
 * One written sentence as the sentences it says, before it is read: a statement before or after
 * the question in it ("I'm allergic to sesame, what snacks ...?", "Can you plan a party for my
 * son Leo, he's turning 6?"), a role said before it ("As a nurse, ..."), what she asks to be
 * remembered ("Can you remember that ...?") and a note to herself, and someone of hers named by
 * role without "my" ("Vet said ..."). Each takes the raw sentence and returns it or its parts.
 */
import { capitalize } from './text.js';

const OPENING = String.raw`(?:(?:oh|hey|hi|so|well|also|btw|ok|okay|and|but|actually|honestly|anyway|now)[,!]?\s+)*`;
/** A statement a person makes of herself or her household, by its opening. */
const FIRST_PERSON_OPENING = new RegExp(
  `^${OPENING}(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|we'd|our)\\b`,
  'i',
);
const ASK_MAX_CHARS = 600;
/** A statement, a clause break, and a question after it to the end of the sentence. */
const TRAILING_ASK =
  /^(.*\S)\s*(?:,|;|:|\s[\u2013\u2014-])\s+((?:(?:so|and|but|or|anyway|anyways|btw|also)\s+)?(?:any|anything|what|what's|which|how|where|when|who|why|can|could|would|will|do|does|did|is|are|have|has|should|maybe|perhaps|ideas?|suggestions?|thoughts|recommendations?|tips|advice)\b[^?]*\?["')\]]*)$/i;

/**
 * A sentence that states something of the speaker and asks after it ("I'm trying to cut down
 * on dairy, so maybe a non-dairy sauce?", "My son turns seven next week, any gift ideas?") is
 * two: the statement, which may become a fact and a profile item like any other, and the
 * question. Taken whole, the question mark made the statement a question, and what she said
 * of herself was kept only inside the question she asked.
 */
export function splitAsk(raw: string, told?: Set<string>): string[] {
  // Only a sentence ending in a question mark, and of a length a person writes in one go (the
  // pattern backtracks over the sentence: a run-on paste of any size is read whole).
  if (raw.length > ASK_MAX_CHARS || !/\?["')\]]*$/.test(raw)) return [raw];
  // An emoji between the two parts breaks them as a comma would ("... again 😂 anyway what's ...?").
  const m = TRAILING_ASK.exec(raw.replace(EMOJI_BREAK, ', '));
  const ask = m?.[2];
  // What opens the statement and is no part of it: "Since I'm allergic ...", "idk if this
  // matters but ...", "lol ...".
  const head = m?.[1]?.replace(HEAD_LEAD, '');
  if (!head || !ask || head.includes('?') || !FIRST_PERSON_OPENING.test(head) || head.split(/\s+/).length < 3)
    return tellsAfter(raw, told);
  return [`${capitalize(head.replace(/[,;:]+$/, ''))}.`, capitalize(ask)];
}

/** A question, a comma, and a clause with a subject of its own to the end of the sentence. */
const LEADING_ASK =
  /^((?:(?:so|and|but|also|ok|okay)[,!]?\s+)?(?:what|what's|which|how|where|when|who|why|can|could|would|will|do|does|did|should|any)\b[^,;?]*?)\s*[,;]\s+(?:(?:and|but|since|as|because|cause|cuz)\s+)?((?:i|i'm|i've|we|we're|we've|he|he's|she|she's|they|they're|my|our)\b[^,;?]*?)\s*\?["')\]]*$/i;
/** A clause that comments on the question rather than tells anything ("I mean", "I guess"). */
const ASIDE_CLAUSE = /^i (?:mean|guess|think|wonder|suppose|bet|hope|know|reckon|feel like)\b/i;
/** A statement joined to the question she asks through "and I was wondering if ...". */
const WONDER_ASK =
  /^(.*\S),?\s+(?:and|but|so)\s+((?:i was|i'm|i am|i've been|just) wondering\b[^?]*\?["')\]]*)$/i;

/**
 * The other order: a question and then what she tells with it, in one sentence ("Can you
 * help me plan a party for my son Leo, he's turning 6 on 14 June?", "What's a good gift for
 * my wife, she's really into pottery?", "I take metformin and I was wondering if I can drink
 * at the wedding?"). The statement is a sentence of its own after the question; what it
 * tells of her son or her health had been kept only inside the question.
 */
function tellsAfter(raw: string, told?: Set<string>): string[] {
  const lead = LEADING_ASK.exec(raw);
  if (
    lead?.[1] &&
    lead[2] &&
    !ASIDE_CLAUSE.test(lead[2]) &&
    lead[1].split(/\s+/).length >= 3 &&
    lead[2].split(/\s+/).length >= 3
  ) {
    const statement = `${capitalize(lead[2])}.`;
    told?.add(statement);
    return [`${capitalize(lead[1])}?`, statement];
  }
  const wonder = WONDER_ASK.exec(raw);
  const head = wonder?.[1]?.replace(HEAD_LEAD, '');
  if (
    wonder?.[2] &&
    head &&
    !/[?]/.test(head) &&
    FIRST_PERSON_OPENING.test(head) &&
    head.split(/\s+/).length >= 3
  )
    return [`${capitalize(head.replace(/[,;:]+$/, ''))}.`, capitalize(wonder[2])];
  return [raw];
}

/** An emoji (with its joiners and variation selectors) and the spaces around it. */
const EMOJI_BREAK = /\s*\p{Extended_Pictographic}(?:\p{Extended_Pictographic}|\u{FE0F}|\u{200D})*\s*/gu;

/**
 * What may open a statement before the question trailing it and is no part of it: a
 * subordinator ("since", "because", "as", "now that"), a frame ("idk if this matters but",
 * "fwiw", "for context"), a laugh or an interjection ("lol", "omg").
 */
const HEAD_LEAD =
  /^(?:(?:lol|lmao|haha+|omg|ugh|ok|okay|fwiw|for context|(?:just )?so you know|(?:idk|i don't know|not sure) if (?:this|it) matters,? but)[,!.]?\s+)*(?:(?:since|because|as|given that|seeing as|now that)\s+)?/i;

/** "As a <role>, ...": the role (not "a result", "a kid": no role of hers now) and the rest. */
const AS_ROLE =
  /^As (an? (?!(?:result|matter|reminder|rule|whole|bonus|treat|gift|thank|side|quick|first|last|kid|child|teen|teenager|boy|girl|young|little)\b)[^,;:.!?]{2,60}|someone (?:who|with)(?:'s)? [^,;:.!?]{2,60}),\s+(\S.*)$/i;
/** "someone who has / with ...", "someone who's / who is ...": what she has, what she is. */
const SOMEONE_HAS = /^someone (?:who has|who's got|with) /i;
const SOMEONE_IS = /^someone (?:who's|who is) /i;

/** "Can you remember that ...?", "Could you please note that ...?": what she asks to be kept. */
const KEEP_ASK =
  /^(?:(?:hey|ok|okay|so),?\s+)?(?:can|could|would|will) you (?:please )?(?:remember|note|keep in mind|make a note|save|store)(?: of)?( that)?\s+(\S[^?]*?)(?:,? please)?\s*\?*$/i;
/** A clause's verb, when no "that" opens it: "Can you remember my wifi password is ...". */
const CLAUSE_VERB =
  /\b(?:is|are|was|were|has|have|had|will|won't|can|can't|likes|loves|hates|needs|lives|works)\b|'s\s/i;
/** "Note to self: ...", "Reminder to self - ...". */
const NOTE_TO_SELF = /^(?:note|reminder|memo) to (?:self|myself)\s*[:,\u2013\u2014-]+\s*/i;
/** Words that open a clause with its own subject, after which no "I need to" is supplied. */
const OWN_SUBJECT =
  /^(?:i|i'm|i've|my|we|our|the|a|an|it|it's|this|that|these|those|there|he|she|they|his|her|their)\b/i;

/**
 * What she asks to be kept is a statement of hers, not a question: "Can you remember that
 * Leo's school play is on 12 June?" tells "Leo's school play is on 12 June." A note to herself
 * is hers to do: "Note to self: renew passport before August" -> "I need to renew passport
 * before August." (it had read as what she asked of the assistant).
 */
export function keptForHer(raw: string): string[] {
  const keep = KEEP_ASK.exec(raw.trim());
  const kept = keep?.[2];
  if (kept && kept.split(/\s+/).length >= 3 && (keep[1] || CLAUSE_VERB.test(kept)))
    return [`${capitalize(kept.replace(/[.!]+$/, ''))}.`];
  const note = NOTE_TO_SELF.exec(raw.trim());
  if (note) {
    const rest = raw.trim().slice(note[0].length);
    return [
      OWN_SUBJECT.test(rest) ? capitalize(rest) : `I need to ${rest.charAt(0).toLowerCase()}${rest.slice(1)}`,
    ];
  }
  return [raw];
}

/**
 * Someone of her life named by role with its "my" left out, as chat does, before what they
 * said or did: "Vet said Luna needs a tooth out", "GP switched me to losartan", "Mum thinks
 * ...". It is her vet, her GP, her mum: "My vet said ...". Not a role used as a name for
 * someone else ("Doctor Who is ...": no verb of saying or doing after it).
 */
const ROLE_SUBJECT =
  /^(vet|doctor|doc|gp|dentist|landlord|landlady|boss|manager|teacher|coach|mechanic|garage|physio|therapist|mum|mom|dad|grandma|grandpa|nan|hubby)\b(?=\s+(?:said|says|told|tells|thinks|thought|wants|wanted|switched|recommended|recommends|suggested|suggests|gave|called|asked|reckons|confirmed|prescribed|booked|agreed|found|fixed|replaced|changed|sent|emailed|texted)\b)/i;
export function ownedRole(raw: string): string {
  const m = ROLE_SUBJECT.exec(raw);
  if (!m?.[1]) return raw;
  const role = m[1] === 'GP' || m[1] === 'gp' ? 'GP' : m[1].toLowerCase();
  return `My ${role}${raw.slice(m[0].length)}`;
}

/**
 * "As a nurse working night shifts, what helps me sleep during the day?" says what the
 * speaker is before it asks or says anything: "I am a nurse working night shifts." is a
 * sentence of its own (a fact and a profile item), the rest another. Not "As a kid, I ..."
 * (what she was) nor "As a result, ..." (no role at all).
 */
export function splitRole(raw: string): string[] {
  const m = AS_ROLE.exec(raw.trim());
  if (!m?.[1] || !m[2] || raw.length > ASK_MAX_CHARS) return [raw];
  // "As someone who's lactose intolerant, ..." -> "I am lactose intolerant."; "As someone with
  // coeliac disease" -> "I have coeliac disease."
  const role = m[1];
  const self = SOMEONE_HAS.test(role)
    ? `I have ${role.replace(SOMEONE_HAS, '')}.`
    : `I am ${role.replace(SOMEONE_IS, '')}.`;
  return [self, capitalize(m[2])];
}
