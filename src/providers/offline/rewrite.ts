/**
 * Third-person rewriting: "I'm going to fix my bike" said by Rosa becomes "Rosa
 * is going to fix Rosa's bike"; "you"/"your" become the addressee's name when it
 * is known. Verbs after a replaced subject are re-conjugated ("I love" -> "Rosa
 * loves", "are you" -> "is Tomas"). Gender is never guessed: reflexives become
 * "themself".
 */
import { ED_PRESENT, STATE_PARTICIPLES } from '../../core/dates.js';
import { NUMBERING_WORDS } from '../../core/numerals.js';

const MODALS = new Set([
  'will',
  'would',
  'can',
  'could',
  'should',
  'might',
  'must',
  'may',
  'shall',
  'ought',
  "can't",
  "won't",
  "wouldn't",
  "couldn't",
  "shouldn't",
  "didn't",
  "mustn't",
  'cannot',
  'used',
  'did',
  'had',
  "hadn't",
]);

const IRREGULAR_PAST = new Set(
  `was were went had did got made took saw came felt found thought told said gave knew left met ran began
bought brought built caught chose drew drove ate fell fought flew forgot grew heard held kept lost meant paid
rode sang sat sent slept spent spoke stood swam taught threw understood woke won wore wrote became shot hung
led lent let put quit set shut split spread hit hurt cut cost bet broke froze hid rang rose shook stole stuck
struck swore tore sold sought blew bled bent bit bound clung crept dealt dove dug fed fled flung forgave
ground knelt laid lay leapt lit shone shrank slid spat spun sprang stank strove stung swept swung wept wound
wove arose sank drank forbade`.split(/\s+/),
);
/** Prefixes that keep a verb irregular: "rewrote", "overcame", "understood". */
const PAST_PREFIX = /^(?:re|over|under|mis|out|with|un|fore|up)(.+)$/;

const ADVERBS = new Set(
  `really just also always never often usually sometimes still actually totally truly finally recently
definitely absolutely honestly even only already kinda mostly generally typically personally seriously
genuinely literally rarely hardly barely almost sort kind currently constantly occasionally too ever then
now again first def def'nitely basically certainly probably definitely`.split(/\s+/),
);

const LY_VERBS = new Set(['apply', 'rely', 'reply', 'supply', 'fly', 'comply', 'imply', 'multiply', 'ally']);
const NOT_PARTICIPLE = new Set(['need', 'feed', 'proceed', 'succeed', 'bleed', 'speed', 'seed', 'heed']);

const IRREGULAR: Record<string, string> = {
  am: 'is',
  are: 'is',
  was: 'was',
  were: 'was',
  be: 'is',
  have: 'has',
  do: 'does',
  go: 'goes',
  "don't": "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "weren't": "wasn't",
  "ain't": "isn't",
  wanna: 'wants to',
  gotta: 'has to',
  gonna: 'is gonna',
};

/** Third-person-singular form of a verb that followed "I" or "you"; other words unchanged. */
export function conjugate(verb: string): string {
  const v = verb.toLowerCase();
  const hit = Object.hasOwn(IRREGULAR, v) ? IRREGULAR[v] : undefined;
  if (hit) return hit;
  const base = PAST_PREFIX.exec(v)?.[1] ?? '';
  const past = (v.endsWith('ed') && !NOT_PARTICIPLE.has(v)) || IRREGULAR_PAST.has(base);
  if (MODALS.has(v) || IRREGULAR_PAST.has(v) || past || v.endsWith("n't") || v.endsWith('ing')) {
    return verb;
  }
  if (!/^[a-z]+$/.test(v) || v.length < 2) return verb;
  if (/(s|sh|ch|x|z|o)$/.test(v)) return `${verb}es`;
  if (/[^aeiou]y$/.test(v)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function isAdverb(w: string): boolean {
  return ADVERBS.has(w) || (w.endsWith('ly') && w.length > 4 && !LY_VERBS.has(w));
}

function looksParticiple(w: string): boolean {
  if (w === 'been' || w === 'gone' || w === 'done' || w === 'seen' || w === 'had' || w === 'got') return true;
  return (w.endsWith('ed') || w.endsWith('en')) && !NOT_PARTICIPLE.has(w) && w.length > 3;
}

/**
 * Verbs a speaker's present-tense clause goes on with after "and", its subject left out
 * ("I'm redecorating my flat and want ideas" -> "... and wants ideas").
 */
const COORDINATED = new Set(
  `want need love like hate hope plan think feel know try enjoy prefer wonder wish miss use go get make take do
have run work play read write cook bake sell buy keep spend live teach study watch listen walk visit call help
look find bring eat drink sleep train practise practice volunteer`.split(/\s+/),
);

/**
 * Words opening a clause within another ("evenings like this show me why I'm learning the
 * violin and keep me practising"): a verb after "and" may be the outer clause's.
 */
const SUBORDINATE = new Set(
  'why because since when whenever if that where how what while though although unless whether who which'.split(
    ' ',
  ),
);

/** Words that start a verb's object or follow it as a particle ("want some", "do it", "go out"). */
const OBJECT_START =
  /^(?:a|an|the|my|your|his|her|our|their|its|it|them|him|me|us|some|any|more|this|that|these|those|to|out|up|in|on|at|for|with|about|into|over|back|home|\d+)$/;

/** Words before "you" that put it in subject position ("and you", "if you"). */
const SUBJECT_BEFORE = new Set(
  `and but so because cause 'cause if when that as while since though although where how what why who whether
until before after hope think bet guess know glad sure wish maybe probably or than means`.split(/\s+/),
);

/** Words opening a noun phrase: "you" after such a phrase is the subject of a clause on it. */
const DETERMINERS = new Set(
  'the a an any every each some all these those my your his her our their'.split(' '),
);
/** Verbs that take "you" as their object ("makes you happy", "helps you stay"). */
const OBJECT_VERBS = new Set(
  `make makes made help helps let lets get gets got give gives gave tell tells told show shows showed send sends sent
take takes took bring brings brought keep keeps kept see sees saw meet meets met ask asks want wants need needs call
calls find finds found thank thanks pay pays owe owes teach teaches taught remind reminds hear hears heard love loves
miss misses`.split(/\s+/),
);
/** Words after "you" that are no verb of its clause ("the file you asked about", "the people with you"). */
const NOT_A_VERB = new Set(
  `to for with about at in on of from by the a an and or but that this these those it them me him her us my your
his our their so then there here up out off over into onto than as if when while because all too very really just
also guys`.split(/\s+/),
);

/** Auxiliaries inverted in questions: "have you" -> "has Tomas". */
const INVERTED: Record<string, string> = {
  are: 'is',
  were: 'was',
  have: 'has',
  do: 'does',
  "don't": "doesn't",
  "aren't": "isn't",
  "haven't": "hasn't",
  "weren't": "wasn't",
  am: 'is',
};

/** Words after which an auxiliary starts a question: "how long have you ...". */
const QUESTION_LEAD = new Set(
  `what how why where when who which long much many often and but so or ever whom whose`.split(/\s+/),
);

const ELLIPTIC_ING = new Set(
  `gonna going planning thinking hoping trying looking heading working getting feeling loving
enjoying learning studying reading watching taking starting preparing saving volunteering training practicing
practising considering spending doing making writing playing visiting moving flying driving`.split(/\s+/),
);
const ELLIPTIC_ADJ = new Set(
  `glad happy excited proud sorry thrilled lucky busy grateful thankful stoked pumped nervous tired exhausted
swamped stuck keen`.split(/\s+/),
);
/** "Love that jacket!" drops its "I". Not "feel"/"think": "Feel free", "Think twice". */
const ELLIPTIC_PRESENT = new Set([
  'love',
  'hope',
  'wish',
  'miss',
  'guess',
  'bet',
  'need',
  'want',
  'appreciate',
  'adore',
]);
const ELLIPTIC_PAST = new Set(
  `just been got went finally recently started finished spent visited bought made took saw met tried had
joined signed built called moved found did ran flew drove won sold`.split(/\s+/),
);

/** A finite verb after a leading gerund shows the gerund is the subject. */
const GERUND_SUBJECT_VERB =
  /\b(?:is|was|are|were|has|makes|made|helps|means|can|will|would|looks|seems|sounds|feels|gives|keeps|brings|takes|lets|becomes|requires|needs|matters|works|isn't|wasn't)\b/i;

/** Any word the rewriter acts on. */
const PRONOUN =
  /\b(?:i|me|my|mine|myself|we|us|our|ours|ourselves|you|your|yours|yourself|y'all)(?:'[a-z]+)?\b/i;

export interface Rewritten {
  text: string;
  /** A first-person-singular subject was replaced by the speaker's name. */
  firstPerson: boolean;
  /** A second-person reference remained or was replaced. */
  secondPerson: boolean;
}

/**
 * A lowercase "i" of code: alone in brackets ("print(i)", "a[i]"), or beside a comparison, an
 * assignment or arithmetic ("i < 10", "i += 1", "i++", "n = i"); not "(i think)", nor "i <3".
 * Every lowercase "i" of such a sentence is a variable, not the speaker.
 */
const CODE_I =
  /[([]\s*i\s*[)\],]|\bi\s*(?:<(?!3)=?|>=?|[-+*/%]?=|\+\+|[-+*/%]\s*\d)|(?:[<>]=?|[-+*/%]?=)\s*i\b(?!['’])/;

/** Pronouns that may open a name or title ("Our Mutual Friend", "Me Before You"). */
const TITLE_PRONOUNS = new Set(['my', 'our', 'your', 'me', 'us', 'we', 'you', 'mine', 'yours', 'ours']);

/**
 * Rewrites one sentence spoken by `speaker` into third person. `addressee` replaces
 * "you"; when null, second-person words stay as they are.
 */
export function toThirdPerson(sentence: string, speaker: string, addressee: string | null): Rewritten {
  if (!PRONOUN.test(sentence)) {
    // Fast path: nothing to replace, only a dropped subject to supply.
    const elliptic = /\?["')]*$/.test(sentence) ? null : elide(sentence, speaker, addressee);
    return { text: elliptic ?? sentence, firstPerson: elliptic !== null, secondPerson: false };
  }
  const parts = sentence.match(/[A-Za-z0-9]+(?:'[A-Za-z]+)*|[^A-Za-z0-9]+/g) ?? [];
  const out: string[] = [];
  let firstPerson = false;
  let secondPerson = false;
  const lower = parts.map((p) => p.toLowerCase());
  const wordAt = parts.map((p) => /^[A-Za-z0-9]/.test(p));
  const low = (i: number): string => lower[i] ?? '';
  const isWord = (i: number): boolean => wordAt[i] === true;
  const firstWord = wordAt.indexOf(true);
  /** Index of the next word if only a plain space separates it from word `i`. */
  const nextWord = (i: number): number => (parts[i + 1] === ' ' && isWord(i + 2) ? i + 2 : -1);
  /**
   * "you" at `i` is the subject of a clause on the noun phrase just before it ("the columns you
   * need", "a favourite book you remember", "for all you do"): a determiner right before the
   * noun or one word before it, the noun no verb taking "you" as its object ("something that
   * makes you happy", "helping you stay", "the people who helped you"), and a verb after it.
   */
  const afterNounPhrase = (i: number, next: string): boolean => {
    const words: string[] = [];
    for (let j = i - 1; j >= 0 && words.length < 3; j--) {
      if (isWord(j)) words.push(low(j));
      else if (/[^\s]/.test(parts[j] ?? '')) break;
    }
    const [prev, ...earlier] = words;
    if (!prev || !/^[a-z]+$/.test(next) || NOT_A_VERB.has(next) || /'/.test(parts[i + 3] ?? '')) return false;
    if (prev === 'all') return true;
    if (OBJECT_VERBS.has(prev) || NOT_A_VERB.has(prev) || /(?:ed|ing|in)$/.test(prev)) return false;
    return earlier.some((w) => DETERMINERS.has(w));
  };
  const prevWord = (): string => {
    for (let j = out.length - 1; j >= 0; j--) {
      const p = out[j] ?? '';
      if (/^[A-Za-z0-9]/.test(p)) return p.toLowerCase();
      if (/[^\s]/.test(p)) return '';
    }
    return '';
  };
  /** Re-conjugates the verb after a replaced singular subject, skipping adverbs. */
  // "I no longer work", "I not only cook": the negation is no verb.
  const negation = (k: number) =>
    (low(k) === 'no' || low(k) === 'not') && /^(?:longer|only)$/.test(low(nextWord(k)));
  const fixVerb = (i: number): number => {
    let j = nextWord(i);
    while (j >= 0 && (isAdverb(low(j)) || negation(j))) {
      const two = negation(j);
      out.push(parts[j - 1] ?? ' ', parts[j] ?? '');
      j = nextWord(j);
      if (two && j >= 0) {
        out.push(parts[j - 1] ?? ' ', parts[j] ?? '');
        j = nextWord(j);
      }
    }
    // "You and Ana should come": a subject joined to another takes no verb of its own yet.
    if (j < 0 || /^(?:and|or|nor|but|plus)$/.test(low(j))) return i;
    out.push(' ', conjugate(parts[j] ?? ''));
    return j;
  };
  const possessive = (name: string): string => `${name}'s`;
  // A possessive soon after the speaker was named becomes "their" for readability ("Rosa
  // is gonna continue their edu"), unless a second person would make that ambiguous, or she
  // was named as an owner: "their" would then read as of what she owns ("Kim's college
  // friends, my knees" is "Kim's knees", not "their knees").
  const hasYou = /\b(?:you|your|you're|you've|you'll|you'd|yours|yourself)\b/i.test(sentence);
  let namedAt = -1;
  let namedOwner = false;
  const isQuestion = /\?["')]*$/.test(sentence.trim());
  const wordsSince = (k: number): number => out.slice(k).filter((o) => /^[A-Za-z0-9]/.test(o)).length;
  const markNamed = (owner = false): void => {
    namedAt = out.length;
    namedOwner = owner;
  };
  const speakerRef = (form: 'obj' | 'poss'): string => {
    const near = namedAt >= 0 && wordsSince(namedAt) <= 3 && !namedOwner;
    const ref = form === 'poss' && near && !hasYou ? 'their' : form === 'obj' ? speaker : possessive(speaker);
    markNamed(form === 'poss' && ref !== 'their');
    return ref;
  };
  // Likewise "we": the first becomes "<speaker> and others", later ones "they".
  let group = false;
  const groupRef = (first: string, later: string): string => {
    const out = group ? later : first;
    group = true;
    return out;
  };

  const codeI = CODE_I.test(sentence);
  // The speaker is the subject of a clause in the present ("I'm", "I love"): a verb after
  // "and" in it is hers too.
  let speakerPresent = false;
  for (let i = 0; i < parts.length; i++) {
    const raw = parts[i] ?? '';
    if (!isWord(i)) {
      if (/[.;:!?]/.test(raw)) speakerPresent = false;
      out.push(raw);
      continue;
    }
    const w = lower[i] ?? '';
    const sentenceStart = i === firstWord;
    // "US" in capitals is the country ("the US east coast"), unless the sentence shouts.
    if (raw === 'US' && /[a-z]/.test(sentence)) {
      out.push(raw);
      continue;
    }
    // A pronoun written with a capital inside a sentence, before another capitalised word, is
    // part of a name or title ("Our Mutual Friend", "My Fair Lady", "Me Before You").
    if (
      !sentenceStart &&
      TITLE_PRONOUNS.has(w) &&
      /^[A-Z]/.test(raw) &&
      (/^[A-Z]/.test(parts[nextWord(i)] ?? '') || /^[A-Z][a-z]/.test(parts[i - 2] ?? '')) &&
      parts[i - 1] === ' ' &&
      !/[.!?:;"“(]\s*$/.test(out[out.length - 1] ?? '')
    ) {
      out.push(raw);
      continue;
    }
    // A pronoun inside a hyphenated word is part of that word ("a thank-you note",
    // "do-it-yourself", "some me-time", "the I-95").
    if (
      ((parts[i - 1] === '-' && isWord(i - 2)) || (parts[i + 1] === '-' && isWord(i + 2))) &&
      PRONOUN.test(raw)
    ) {
      out.push(raw);
      continue;
    }
    // A lowercase "i" in a sentence of code is a variable ("while i < 10: print(i)").
    if (raw === 'i' && codeI) {
      out.push(raw);
      continue;
    }
    // "I" after a word that numbers is the numeral one ("World War I", "Type I diabetes").
    if (raw === 'I' && parts[i - 1] === ' ' && NUMBERING_WORDS.has(parts[i - 2] ?? '')) {
      out.push(raw);
      continue;
    }
    // Inverted questions: "are you", "do I".
    const inv = Object.hasOwn(INVERTED, w) ? INVERTED[w] : undefined;
    const nj = nextWord(i);
    const lead = (): boolean =>
      sentenceStart || isQuestion || QUESTION_LEAD.has(prevWord()) || /,\s*$/.test(out[out.length - 1] ?? '');
    if (inv && nj >= 0 && lead()) {
      const nw = low(nj);
      const target = nw === 'you' && addressee ? addressee : nw === 'i' && w !== 'are' ? speaker : null;
      if (target) {
        out.push(matchCase(raw, inv), ' ', target);
        if (nw === 'you') secondPerson = true;
        else firstPerson = true;
        i = nj;
        continue;
      }
    }
    // "and want some ideas": not after a comma (", and look at ..." opens a clause of its
    // own), and only a verb with its object or particle after it ("the self-acceptance and
    // love theme" joins nouns).
    if (
      w === 'and' &&
      speakerPresent &&
      nj >= 0 &&
      COORDINATED.has(low(nj)) &&
      !/,\s*$/.test(out[out.length - 1] ?? '') &&
      nextWord(nj) >= 0 &&
      (OBJECT_START.test(low(nextWord(nj))) || /^(?:do|go|have)$/.test(low(nj)))
    ) {
      out.push(raw, ' ', conjugate(parts[nj] ?? ''));
      i = nj;
      continue;
    }
    // A clause of someone else's, or the verb's own infinitive ("wants to live and help"):
    // the verbs that follow are not the speaker's present.
    // "to Leeds": a place's name after "to" is no infinitive either.
    const preposition =
      w === 'to' &&
      nj >= 0 &&
      (/^(?:a|an|the|my|your|his|her|our|their|this|that|work|school|bed|church|town|class)$/.test(low(nj)) ||
        /^\p{Lu}/u.test(parts[nj] ?? ''));
    if (
      (/^(?:you|he|she|it|they|we|who|which|to|gonna|wanna|gotta)$/.test(w) && !preposition) ||
      MODALS.has(w)
    )
      speakerPresent = false;
    switch (w) {
      case "i'm":
      case "i've":
      case "i'll": {
        speakerPresent = w !== "i'll" && !SUBORDINATE.has(prevWord());
        out.push(speaker, ' ', w === "i'm" ? 'is' : w === "i've" ? 'has' : 'will');
        firstPerson = true;
        markNamed();
        continue;
      }
      case "i'd": {
        let j = nextWord(i);
        while (j >= 0 && isAdverb(low(j))) j = nextWord(j);
        out.push(speaker, ' ', j >= 0 && looksParticiple(low(j)) ? 'had' : 'would');
        firstPerson = true;
        markNamed();
        continue;
      }
      case 'i': {
        const compound = isCompoundSubject(out.join(''), speaker);
        // After a modal the verb stays as it is: "should I change" -> "should Rosa change".
        const afterModal = MODALS.has(prevWord());
        const subordinate = SUBORDINATE.has(prevWord());
        out.push(speaker);
        firstPerson = true;
        markNamed();
        speakerPresent = false;
        if (!compound && !afterModal) {
          const j = fixVerb(i);
          speakerPresent =
            !subordinate && j !== i && !MODALS.has(low(j)) && conjugate(parts[j] ?? '') !== (parts[j] ?? '');
          i = j;
        }
        continue;
      }
      case 'me':
        out.push(parts[i + 1]?.startsWith('-') ? raw : speakerRef('obj'));
        continue;
      case 'my':
        out.push(speakerRef('poss'));
        continue;
      case 'mine':
        out.push(possessive(speaker));
        continue;
      case 'myself':
        out.push('themself');
        continue;
      case 'we':
      case "we're":
      case "we've":
      case "we'll":
      case "we'd": {
        const tail: Record<string, string> = {
          "we're": ' are',
          "we've": ' have',
          "we'll": ' will',
          "we'd": ' would',
        };
        out.push(`${groupRef(`${speaker} and others`, matchCase(raw, 'they'))}${tail[w] ?? ''}`);
        firstPerson = true;
        continue;
      }
      case 'us':
        out.push(groupRef(`${speaker} and others`, 'them'));
        continue;
      case 'our':
        out.push(groupRef(possessive(speaker), 'their'));
        continue;
      case 'ours':
        out.push(possessive(speaker));
        continue;
      case 'ourselves':
        out.push('themselves');
        continue;
    }
    if (addressee && /^(you|you're|you've|you'll|you'd|your|yours|yourself|y'all)$/.test(w)) {
      secondPerson = true;
      if (w === 'your' || w === 'yours') out.push(possessive(addressee));
      else if (w === 'yourself') out.push('themself');
      else if (w === "y'all") out.push(`${addressee} and others`);
      else if (w === "you're" || w === "you've" || w === "you'll") {
        out.push(addressee, ' ', w === "you're" ? 'is' : w === "you've" ? 'has' : 'will');
      } else if (w === "you'd") {
        const j = nextWord(i);
        out.push(addressee, ' ', j >= 0 && looksParticiple(low(j)) ? 'had' : 'would');
      } else {
        // Plain "you": re-conjugate only in subject position.
        const before = prevWord();
        out.push(addressee);
        const j = nextWord(i);
        const next = j >= 0 ? low(j) : '';
        if (next === 'guys' || next === 'all') {
          out.push(' and others');
          i = j;
        } else if (Object.hasOwn(INVERTED, next) && next !== 'do' && next !== "don't") i = fixVerb(i);
        else if (sentenceStart || before === '' || SUBJECT_BEFORE.has(before) || afterNounPhrase(i, next))
          i = fixVerb(i);
      }
      continue;
    }
    out.push(raw);
  }
  let text = out.join('');
  const elliptic = /\?["')]*$/.test(text) ? null : elide(text, speaker, addressee);
  if (elliptic) {
    text = elliptic;
    firstPerson = true;
  }
  return { text, firstPerson, secondPerson };
}

/** A finite verb that shows a clause before "and I" has its own: common -s forms, any -ed form. */
const CLAUSE_VERB =
  /^(?:is|was|are|were|has|had|have|does|did|makes|works|lives|earns|gets|goes|likes|loves|wants|needs|says|takes|pays|costs|runs|starts|[a-z]{3,}ed)$/i;

/**
 * True when "I" closes a compound subject ("My husband and I go"): the clause so far is
 * short, ends in "and"/"or" and has no subject of the speaker yet.
 */
function isCompoundSubject(before: string, speaker: string): boolean {
  const clause = before.split(/[,;:.!?—–]|\s-\s/).pop() ?? '';
  if (!/\b(and|or)\s*$/i.test(clause)) return false;
  const words = clause.trim().split(/\s+/);
  // "My wife makes $62k and I make ...": a clause with a verb of its own before "and" is no
  // subject joined to "I".
  if (words.some((w) => CLAUSE_VERB.test(w))) return false;
  const standalone = words.some((w) => w === speaker);
  return !standalone && words.length >= 2 && words.length <= 5;
}

/** Supplies the dropped subject of "Preparing the spare room" or "Just got back". */
function elide(text: string, speaker: string, addressee: string | null): string | null {
  const m = /^([A-Za-z']+)\b/.exec(text);
  if (!m) return null;
  const first = (m[1] ?? '').toLowerCase();
  const rest = text.slice(m[0].length);
  const head = `${first}${rest}`;
  if (ELLIPTIC_ING.has(first)) {
    // A gerund subject ("Fixing old radios is relaxing") is not an ellipsis.
    const clause = rest.split(/[,;:—–]|\s-\s/)[0] ?? '';
    if (first !== 'gonna' && GERUND_SUBJECT_VERB.test(clause)) return null;
    // "Moving on, ...", "Moving forward, ...": a turn of the talk, no move of hers.
    if (/^\s+(?:on|forward|along)\s*[,.;:!?]/i.test(rest)) return null;
    return `${speaker} is ${head}`;
  }
  if (ELLIPTIC_ADJ.has(first)) return `${speaker} is ${head}`;
  // "Back from Mexico!", "Just back from the clinic", "Home from the hospital", "Back at the
  // dentist this morning": where one has come back from or to, with no verb. Not "Back to the
  // question ..." (a topic taken up again) nor "Back in 2019, ..." (a time gone by).
  if (
    /^(?:(?:just|finally)\s+)?(?:(?:back|home)\s+from|back\s+(?:at|home\b)|back\s+in\s+(?!\d|the\s+(?:day|days|\d)|high\s+school|college|school|time))\b/i.test(
      head,
    )
  )
    return `${speaker} is ${head}`;
  if (ELLIPTIC_PRESENT.has(first)) {
    // "Love is all you need" and "Miss Smith called" have their own subject.
    const next = /^\s+([A-Z]\w*)/.exec(rest)?.[1];
    if (/^\s*(?:is|was|are|were|has|can|will|'s)\b/.test(rest)) return null;
    if (next && next !== addressee && next !== speaker) return null;
    return `${speaker} ${conjugate(first)}${rest}`;
  }
  if (ELLIPTIC_PAST.has(first)) {
    // "Finally, add the salt": an adverb with its comma opens the sentence, no dropped subject.
    if (/^\s*,/.test(rest)) return null;
    // "Just me and my partner", "Just penicillin": "just" before no verb in the past answers
    // who or what, with no dropped subject before it.
    if (first === 'just' && !JUST_DONE.test(rest)) return null;
    if (first === 'been') return `${speaker} has ${head}`;
    return `${speaker} ${head}`;
  }
  // Any verb in the past before its object: "Submitted my applications today", "Decided not
  // to apply". Not a participle that says how one is or where a thing is ("Based on ...",
  // "Related to that", "Interested in ...").
  if (
    /^[a-z]{2,}ed$/.test(first) &&
    !NOT_PAST.has(first) &&
    (PAST_OBJECT.test(rest) || rest.startsWith(` ${speaker}'s `))
  )
    return `${speaker} ${head}`;
  return null;
}

/** A verb in the past after an opening "just" ("Just finished my thesis", "Just got back"). */
const JUST_DONE = new RegExp(
  `^\\s+(?:(?:finally|now|really|about)\\s+)?(?:[a-z]{2,}ed|been|${[...ELLIPTIC_PAST].filter((w) => w !== 'just' && !w.endsWith('ed') && !w.endsWith('ly')).join('|')}|came|heard|read|wrote|sent|told|began|gave|became|ate|woke|fell|felt|kept|lost|paid|caught|brought|left)\\b`,
);

/** Words opening an object or a particle after a dropped subject's verb in the past. */
const PAST_OBJECT =
  /^\s+(?:my|our|a|an|the|some|not|to|up|out|back|off|him|her|them|it|this|that|his|their|all|every|everything|everyone|someone|something|two|three|four|five|\d+)\b/i;

/**
 * Participles that open a sentence without a dropped "I" before them (core/dates.ts
 * STATE_PARTICIPLES, and these), and verbs of the present ending in "ed" ("Need my coffee":
 * ED_PRESENT, and "weed").
 */
const NOT_PAST = new Set([
  ...`based related compared given considered concerned involved located dressed attached inspired impressed
confused married divorced retired limited needed required included named aged priced sized weed`.split(/\s+/),
  ...STATE_PARTICIPLES,
  ...ED_PRESENT,
]);

function matchCase(original: string, replacement: string): string {
  return /^[A-Z]/.test(original) ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
}
