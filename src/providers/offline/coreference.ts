import type { ExtractedFact } from '../../core/ports.js';
import { MONTHS, WEEKDAYS } from '../../core/time.js';
import type { MessageView } from './analyze.js';
import { EITHER, FEMALE, MALE, PET } from './nouns.js';

/**
 * "they" / "them" in a fact, linked to the group it stands for. A reply such as "They loved
 * the aquarium" makes a fact that never names who loved it, so a question about "her
 * nephews" cannot find it by any word. When the conversation just before the pronoun names a
 * group with a determiner ("took my nephews to ...", "the twins were ..."), the fact's first
 * they/them is followed by that group in brackets: "They (Ana's nephews) loved the aquarium".
 * The group is looked for in the fact's first message before its own pronoun, then in the
 * two messages before it, nearest first; a fact that names a group before its pronoun keeps
 * its text.
 */
const PRONOUN = /\b(?:they|them)\b/i;

/**
 * A determiner, at most two modifiers, a plural noun ("the twins", "my two older sisters").
 * Not "their": it is itself a pronoun of a group, so "their faces" names no group that a
 * later "they" could stand for. Not a singular noun in -ss, -is, -us ("the class", "my
 * ficus").
 */
const GROUP =
  /\b(the|my|our|your|his|her|these|those|both)\s+((?:[a-z][a-z-]*\s+){0,2}?)(children|people|men|women|[a-z]{2,}[^siu'\W]s)\b/gi;

/** Plural-looking words that are not nouns of a group. */
const NOT_NOUNS = new Set(
  'always sometimes perhaps besides whereas thanks news series species means lots days years times hours minutes weeks months ways things stuff results'.split(
    ' ',
  ),
);

/**
 * Two things a person got or has, joined by "and", each with "a"/"an" and at most one
 * modifier ("I will buy a pothos and a snake plant", "we have a pup and a kitty"), up to
 * where the phrase ends: a stop, a comma, the end or a preposition. Only after a verb of
 * getting or having: elsewhere two such things are seldom what a later "them" stands for
 * ("to start a business and a new store ... inspire them").
 */
const ITEM = '(?:a|an)\\s+(?:(?!of\\b|to\\b|for\\b|in\\b|and\\b)[a-z][a-z-]*\\s+)?[a-z][a-z-]+';
const PAIR = new RegExp(
  `\\b(?:get|gets|got|buy|buys|bought|adopt|adopted|order|ordered|pick|picked|chose|choose|have|has|had|own|owns|found|brought|plant|planted|grow|grew|rescued)\\s+(?:also\\s+)?(${ITEM}\\s+and\\s+${ITEM})(?=\\s*(?:$|[.!?,;:)])|\\s+(?:for|in|on|at|from|with|but|because|so|which|that|today|yesterday|tomorrow|this|last|next)\\b)`,
  'gi',
);

type Named = { at: number; end: number; render: (view: MessageView) => string | null };

/** The owner a determiner gives from a third person's point of view ("my" -> "Ana's"), or null for an unknown "your". */
function owner(det: string, view: MessageView): string | null {
  const d = det.toLowerCase();
  if (d === 'my' || d === 'our') return `${view.speaker}'s`;
  if (d === 'your') return view.addressee ? `${view.addressee}'s` : null;
  return d;
}

/** The groups named in `text`, in order: GROUP's (whose noun is one) and PAIR's, a group inside a pair left out. */
function groupsIn(text: string): Named[] {
  const pairs: Named[] = [...text.matchAll(PAIR)].map((m) => ({
    at: m.index + m[0].length - (m[1] ?? '').length,
    end: m.index + m[0].length,
    render: (view) => {
      const halves = (m[1] ?? '').split(/\s+and\s+/i).map((h) => {
        const [det = '', ...rest] = h.trim().split(/\s+/);
        const o = owner(det, view);
        return o === null ? null : `${o} ${rest.join(' ')}`;
      });
      return halves.includes(null) ? null : halves.join(' and ');
    },
  }));
  const groups: Named[] = [...text.matchAll(GROUP)]
    .filter((m) => !NOT_NOUNS.has((m[3] ?? '').toLowerCase()))
    .map((m) => {
      const [, det, mods, noun] = m as unknown as [string, string, string, string];
      return {
        at: m.index,
        end: m.index + m[0].length,
        render: (view: MessageView) => {
          const o = owner(det, view);
          return o === null ? null : `${o} ${mods}${noun}`.replace(/\s+/g, ' ');
        },
      };
    })
    .filter((g) => !pairs.some((p) => g.at >= p.at && g.end <= p.end));
  return [...pairs, ...groups].sort((a, b) => a.end - b.end);
}

/** The last group named in `text`, rendered from the point of view of a third person. */
function lastGroup(text: string, view: MessageView): string | null {
  let found: string | null = null;
  for (const g of groupsIn(text)) found = g.render(view) ?? found;
  return found;
}

/**
 * The group a pronoun in message `k` (at `before` characters) points back to. A person's
 * pronoun is not looked for in an assistant's reply: a long reply names many groups in passing
 * ("state your assumptions", "while the pain settles"), seldom the one she means ("What should
 * I ask them at the end?": the interviewers).
 */
function referent(views: readonly MessageView[], k: number, before: number): string | null {
  const person = views[k]?.msg.role === 'user';
  for (let j = k, seen = 0; j >= 0 && seen < 3; j--) {
    const v = views[j];
    if (!v || v.msg.role === 'tool' || (person && j !== k && v.msg.role === 'assistant')) continue;
    seen++;
    const text = v.msg.content;
    const group = lastGroup(j === k ? text.slice(0, before) : text, v);
    if (group) return group;
  }
  return null;
}

/** The facts with their first they/them followed by the group it stands for, when one is named just before. */
export function linkGroups(facts: readonly ExtractedFact[], views: readonly MessageView[]): ExtractedFact[] {
  const index = new Map(views.map((v, i) => [v.msg.id, i]));
  return facts.map((f) => {
    const m = PRONOUN.exec(f.content);
    if (!m) return f;
    if (groupsIn(f.content.slice(0, m.index)).length > 0) return f;
    // The fact's message that holds the pronoun (an answer's, not its question's). When none
    // does, the fact's "they" is the rewriter's, a "we" retold ("We had a good quarter and we
    // launched two features": "User and others ... they launched"), and stands for no group.
    const first = f.message_ids
      .map((id) => index.get(id))
      .filter((k): k is number => k !== undefined)
      .sort((a, b) => b - a)
      .find((k) => PRONOUN.test(views[k]!.msg.content));
    if (first === undefined) return f;
    const text = views[first]!.msg.content;
    const own = PRONOUN.exec(text)!;
    // "Enter your partner's email. They will get an invitation": a person named just before
    // may be the one a singular "they" stands for, so no group is said to be.
    if (ONE_PERSON.test(text.slice(Math.max(0, own.index - 120), own.index))) return f;
    const group = referent(views, first, own.index);
    if (!group) return f;
    const at = m.index + m[0].length;
    return { ...f, content: `${f.content.slice(0, at)} (${group})${f.content.slice(at)}` };
  });
}

/**
 * "One" standing for a thing the same message just named with "a" / "an": "Can you give me
 * some tips for a job interview? I have one next week at Lumen Labs" makes a fact that never
 * says what she has. After a verb of having, getting or needing ("I have one", "we booked
 * one", "I need one"; not "one of"), the fact's "one" is followed by that thing in brackets:
 * "User has one (a job interview) in the week after ...". The thing is the last "a" / "an"
 * phrase that ends a clause before the "one" in the message.
 */
const ONE =
  /\b(?:have|has|had|got|get|gets|need|needs|needed|want|wants|wanted|booked|bought|found|ordered|started|start|starts)\s+one\b(?!\s+(?:of|another|day|more|last|thing)\b)/i;
const THING = /\b(?:a|an)\s+((?:[a-z-]+\s+){0,2}?[a-z-]{3,})(?=\s*(?:[?.!,;:]|$))/gi;

/** The facts with a "one" that stands for a thing the message named just before, said. */
export function linkOne(facts: readonly ExtractedFact[], views: readonly MessageView[]): ExtractedFact[] {
  const byId = new Map(views.map((v) => [v.msg.id, v]));
  return facts.map((f) => {
    const m = ONE.exec(f.content);
    if (!m || f.message_ids.length !== 1) return f;
    const v = byId.get(f.message_ids[0]!);
    if (!v || v.msg.role === 'tool') return f;
    const text = v.msg.content;
    const own = ONE.exec(text);
    if (!own) return f;
    let thing: string | undefined;
    for (const t of text.slice(0, own.index).matchAll(THING)) thing = t[0];
    if (!thing) return f;
    const at = m.index + m[0].length;
    // The article in lower case, the thing as written ("an Airbnb").
    const said = thing.replace(/^A(n?)\b/, 'a$1');
    return { ...f, content: `${f.content.slice(0, at)} (${said})${f.content.slice(at)}` };
  });
}

/**
 * "She" / "he" opening a sentence right after one that names a single pet or person of the
 * speaker's ("We finally adopted a kitten! She's a grey tabby called Fig.", "What's a good
 * gift for my coworker? She loves birdwatching.") stands for it: the sentence is said of it
 * ("My kitten is a grey tabby called Fig.", "My coworker loves birdwatching."), so its fact
 * names whom it is about and the profile keeps it. Not when the sentence before names
 * anyone or anything else a pronoun could stand for (a second pet or person, a name), nor
 * when the pronoun's gender is not the relation's ("my brother ... She"), and not for "it",
 * which as often stands for nothing ("It was a long day"). A pet is a noun that ends its
 * phrase ("a kitten!", "my parrot learned"), not the first word of another ("a dog bed").
 * "His name is Pip" / "Her name's Fig" is said the same way: "My puppy is named Pip".
 */
const ENDS_PHRASE =
  '(?=\\s*(?:$|[.!?,;:)]|\\s(?:named|called|from|who|that|and|at|in|with|last|this|yesterday|today|on|is|was|has|had|loves|likes|hates|gets|keeps|sleeps|eats|needs|seems|looks|[a-z]{2,}ed)\\b))';
const PET_NAMED = new RegExp(`\\b(a|an|my|our|the)\\s+(?:[a-z-]+\\s+){0,2}?(${PET})${ENDS_PHRASE}`, 'gi');
/** "my coworker", "my older sister Priya": the relation in group 1, a name after it in group 2. */
const PERSON_NAMED = new RegExp(
  `\\b(?:[Mm]y|[Oo]ur)\\s+(?:[a-z-]+\\s+)?(${FEMALE}|${MALE}|${EITHER})\\b(?:,?\\s+([A-Z][a-z]+)\\b)?`,
  'g',
);
/**
 * Capitalised words a pronoun could stand for: not opening the sentence, not "I", not a pet's
 * name, not a place after its preposition ("moved to Leeds").
 */
const CAPITALISED =
  /(?<=\S\s+)(?<!\b(?:named|called|to|in|at|from|near|of|for|into|around|across|via|through)\s+)(?!I\b)[A-Z][a-z]+/g;
/** Capitalised words of a date, which no pronoun stands for ("a puppy on 13 March 2024"). */
const DATE_WORDS = new Set<string>([...MONTHS, ...WEEKDAYS]);
/** One person of someone's ("your partner", "my mum's"; not one of a list), who may be a singular "they". */
const ONE_PERSON = new RegExp(
  `\\b(?:my|your|his|her|our|their)\\s+(?:[a-z-]+\\s+)?(?:${FEMALE}|${MALE}|${EITHER})(?:'s)?\\b(?!\\s*(?:,|and\\b|&|or\\b))`,
  'i',
);
const ONLY_MALE = new RegExp(`^(?:${MALE})$`);
const ONLY_FEMALE = new RegExp(`^(?:${FEMALE})$`);
const HE_SHE = /^(She|He)(?:'s\s+(been|got|gotten|had)\b|'s\b|(?=\s+[a-z]))/;
/** "His name is Pip", "Her name's Fig": the name of the one the sentence before names. */
const HIS_HER_NAME = /^(Her|His) name(?:'s|\s+is)(?=\s+\p{Lu})/u;

/** `sentence` with an opening she/he said of the one pet or person `before` names (same message), else as is. */
export function heOrShe(before: string | undefined, sentence: string): string {
  const named = before ? HIS_HER_NAME.exec(sentence) : null;
  // "His name is Pip ..." -> "He is named Pip ...", said of the pet or person as any "he" is.
  if (named) {
    const said = heOrShe(
      before,
      `${named[1] === 'Her' ? 'She' : 'He'} is named${sentence.slice(named[0].length)}`,
    );
    return said.startsWith('My ') || said.startsWith('The ') ? said : sentence;
  }
  const m = before ? HE_SHE.exec(sentence) : null;
  if (!m || !before) return sentence;
  const pets = [...before.matchAll(PET_NAMED)];
  const people = [...before.matchAll(PERSON_NAMED)];
  const names = new Set(people.map((p) => p[2]).filter(Boolean));
  const others = (before.match(CAPITALISED) ?? []).filter((w) => !names.has(w) && !DATE_WORDS.has(w));
  if (pets.length + people.length !== 1 || others.length > 0) return sentence;
  const verb = m[2] ? ` has ${m[2]}` : m[0].endsWith("'s") ? ' is' : '';
  const rest = `${verb}${sentence.slice(m[0].length)}`;
  const pet = pets[0];
  if (pet) {
    const det = pet[1]!.toLowerCase();
    const own = det === 'my' || det === 'our' || (det !== 'the' && /\b(?:I|we|my|our)\b/i.test(before));
    return `${own ? 'My' : 'The'} ${pet[2]!.toLowerCase()}${rest}`;
  }
  const [, relation = '', name] = people[0]!;
  if ((m[1] === 'She' ? ONLY_MALE : ONLY_FEMALE).test(relation)) return sentence;
  return `My ${relation}${name ? ` ${name}` : ''}${rest}`;
}
