/**
 * One written sentence as the sentences it says, before it is read: a statement before or after
 * the question in it ("I'm allergic to sesame, what snacks ...?", "Can you plan a party for my
 * son Leo, he's turning 6?"), a role said before it ("As a nurse, ..."), what she asks to be
 * remembered ("Can you remember that ...?") and a note to herself, a statement after a short
 * request closed by "please," and someone of hers named by role without "my" ("Vet said ...").
 * Each takes the raw sentence and returns it or its parts.
 */
import { escapeRegExp } from '../../core/regexp.js';
import { RELATIVES } from './nouns.js';
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
  const statement = statementOf(m?.[1]);
  if (!statement || !ask) return tellsAfter(raw, told);
  return [statement, capitalize(ask)];
}

/**
 * What comes before the question of a sentence, as a statement she makes of herself ("I'm
 * allergic to sesame."), without what opens it and is no part of it ("Since ...", "idk if this
 * matters but ...", "lol ..."); null when it is none: no first-person opening, under three
 * words, or a question of its own.
 */
function statementOf(head: string | undefined): string | null {
  const said = head?.replace(HEAD_LEAD, '');
  if (!said || said.includes('?') || !FIRST_PERSON_OPENING.test(said) || said.split(/\s+/).length < 3)
    return null;
  return `${capitalize(said.replace(/[,;:]+$/, ''))}.`;
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
  const statement = statementOf(wonder?.[1]);
  return statement && wonder?.[2] ? [statement, capitalize(wonder[2])] : [raw];
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

/**
 * A short request closed by "please," and a clause of her own after it: "No feta please, I
 * stopped eating dairy in April", "Send me the list please, my landlord wants it by Friday".
 * The clause is a statement of its own; read whole, the sentence was a request and what came
 * after "please" was cut with it (analyze.ts withoutRequest). Not a "please" inside a request
 * ("Could you please, if you have time, ...": no clause of her own follows).
 */
const PLEASE_THEN_STATEMENT = new RegExp(
  String.raw`^(\S(?:[^,;.!?]{0,80}?\S)?\s+please)\s*[,;]\s+(${FIRST_PERSON_OPENING.source.slice(1)}.*)$`,
  'i',
);
export function splitPlease(raw: string): string[] {
  const m = PLEASE_THEN_STATEMENT.exec(raw.trim());
  if (!m?.[1] || !m[2] || raw.length > ASK_MAX_CHARS) return [raw];
  return [`${m[1]}.`, capitalize(m[2])];
}

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
  const sentence = raw.trim();
  const keep = KEEP_ASK.exec(sentence);
  const kept = keep?.[2];
  if (kept && kept.split(/\s+/).length >= 3 && (keep[1] || CLAUSE_VERB.test(kept)))
    return [`${capitalize(kept.replace(/[.!]+$/, ''))}.`];
  const note = NOTE_TO_SELF.exec(sentence);
  if (note) {
    const rest = sentence.slice(note[0].length);
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

/** Verbs a note about someone opens with when it leaves its subject out ("Prefers short answers"). */
const NOTE_VERBS =
  "prefers|likes|loves|hates|dislikes|enjoys|uses|works|lives|owns|drives|speaks|wants|needs|has|is|was|studies|teaches|plays|runs|writes|reads|goes|gets|takes|knows|thinks|feels|says|keeps|avoids|went|got|took|had|made|bought|ran|wrote|cannot|can't|doesn't|isn't|hasn't|wasn't";
const NOTE_VERB_SET = new Set(NOTE_VERBS.split('|'));
/** NOTE_VERBS that open a note with no subject: a verb in -s of what one likes, does or has. */
const BARE_VERBS =
  'prefers|likes|loves|hates|dislikes|enjoys|uses|works|lives|owns|drives|speaks|wants|needs|studies|teaches|plays|runs|writes|reads|keeps|avoids';
/** Adverbs between a note's subject and its verb ("The user also uses Neovim"). */
const NOTE_ADVERBS = 'also|always|never|usually|often|just|recently|now';
/** What may follow "the user" / her name as its verb: NOTE_VERBS, a past in -ed, a modal, an adverb. */
const SUBJECT_VERB = new RegExp(
  `^(?:${NOTE_VERBS}|[a-z]{3,}ed|will|would|can|could|should|might|must|${NOTE_ADVERBS})$`,
);
/** The verb opening what follows a note's subject, after an adverb if one comes first. */
const NOTE_VERB = new RegExp(`^((?:(?:${NOTE_ADVERBS})\\s+)?)([a-z']+)`);

/** A verb said of "he" / "she" as said of "I": "prefers" -> "prefer", "is" -> "am", "studies" -> "study". */
function firstPersonVerb(verb: string): string {
  const lower = verb.toLowerCase();
  const irregular: Record<string, string> = {
    is: 'am',
    has: 'have',
    does: 'do',
    "isn't": 'am not',
    "doesn't": "don't",
    "hasn't": "haven't",
  };
  if (Object.hasOwn(irregular, lower)) return irregular[lower]!;
  if (!NOTE_VERB_SET.has(lower) || !/s$/.test(lower) || /ss$/.test(lower)) return verb;
  if (/[^aeiou]ies$/.test(lower)) return `${lower.slice(0, -3)}y`;
  if (/(?:ch|sh|x|z|o)es$/.test(lower)) return lower.slice(0, -2);
  return lower.slice(0, -1);
}

/**
 * A later clause of such a note opening with "she" / "he" is her too ("...; she works at
 * Acme"), unless someone else is named before it ("her sister ..., and she arrives Monday").
 */
const LATER_SUBJECT = /([;,]\s+(?:and\s+|but\s+)?|\s(?:and|but)\s+)(?:she|he)(?:('s)\s+|\s+([a-z']+))/i;
const SOMEONE_ELSE = new RegExp(`\\b(?:her|his|him|${RELATIVES})\\b`, 'i');
function herLater(said: string): string {
  const m = LATER_SUBJECT.exec(said);
  if (!m || SOMEONE_ELSE.test(said.slice(0, m.index))) return said;
  const [whole, lead = '', is, verb = ''] = m;
  const her = is ? `${lead}I'm ` : `${lead}I ${firstPersonVerb(verb)}`;
  return `${said.slice(0, m.index)}${her}${herLater(said.slice(m.index + whole.length))}`;
}

/** A note's opening verb with no subject (BARE_VERBS). */
const BARE_NOTE = new RegExp(`^(${BARE_VERBS})\\s+(?=[a-z])`, 'i');
/** "the user", "user" or her name opening a sentence, as subject or owner, by speaker (one segment's few). */
const SELF_SUBJECTS = new Map<string, RegExp>();
function selfSubject(speaker: string): RegExp {
  let re = SELF_SUBJECTS.get(speaker);
  if (!re) {
    if (SELF_SUBJECTS.size > 256) SELF_SUBJECTS.clear();
    re = new RegExp(`^(?:the user|user|${escapeRegExp(speaker)})(?:('s)\\s+|\\s+(?=[a-z]))`, 'i');
    SELF_SUBJECTS.set(speaker, re);
  }
  return re;
}

/**
 * A note about herself written in the third person, as an agent writes what it was told to
 * remember ("The user prefers pnpm over npm", "Kim is allergic to peanuts" in Kim's own note,
 * "Prefers concise answers"): said as hers, in the first person, so it is read as anything she
 * says of herself ("I prefer pnpm over npm"), for her facts and her profile alike. Only the
 * sentence's subject: "the user", "user" or her own name (a possessive: "my"), before a verb
 * of hers (SUBJECT_VERB: not "User settings are ..."), or no subject before one of NOTE_VERBS.
 */
export function selfInFirstPerson(raw: string, speaker: string): string {
  const subject = selfSubject(speaker).exec(raw);
  if (subject) {
    const rest = raw.slice(subject[0].length);
    if (subject[1]) return herLater(`My ${rest}`);
    // "The user also uses Neovim": the verb after the adverb is hers too.
    const m = NOTE_VERB.exec(rest);
    const verb = m?.[2];
    if (!m || !verb || !SUBJECT_VERB.test(verb)) return raw;
    return herLater(`I ${m[1]}${firstPersonVerb(verb)}${rest.slice(m[0].length)}`);
  }
  // No subject: only a verb in -s of what one likes, does or has, in a statement ("Prefers ...";
  // not "Is this yours?", "Got any tips?", which ask).
  if (/\?["')\]]*$/.test(raw.trim())) return raw;
  const bare = BARE_NOTE.exec(raw);
  if (bare?.[1]) return `I ${firstPersonVerb(bare[1])} ${raw.slice(bare[0].length)}`;
  return raw;
}
