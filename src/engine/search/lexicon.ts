import type { Sql } from '../../core/db.js';
import type { SearchScope } from './scope.js';

/** Words asking for a meal: cues of the diet and allergy kinds. */
const MEALS = 'recipe recipes meal meals dinner lunch breakfast dish dishes';

/**
 * Query-side vocabulary bridges, general English only:
 *
 * - **Kinds**: a question names a kind ("what pet", "which allergies", "where does she
 *   live") while the memory names an instance ("a dog named Miso", "allergic to
 *   peanuts", "moved to Porto"). Each group lists the words that answer for one kind.
 * - **Stemming gaps**: the english stemmer keeps derivations apart ("allergy" -> allergi,
 *   "allergic" -> allerg; "mentorship" / "mentored"). A query lexeme's root (derivational
 *   suffix cut) is matched against the lexemes actually stored for the owner's scope.
 * - **Irregular verbs**: a question asks "what did she buy", a memory says "bought"; the
 *   stemmer does not join the two (IRREGULAR).
 * - **Words for the same thing**: "dad" / "father", "flat" / "apartment" (SAME), and a
 *   noun's irregular plural, which the stemmer does not join to its singular ("knives" /
 *   "knife", "women" / "woman": PLURALS).
 * - **An amount paid**: "how much did I spend on knives?" is answered by "bought a chef
 *   knife for 55 dollars" (AMOUNT).
 *
 * Expansions form a second query of lower weight (service.ts), so a memory using the
 * question's own words still ranks first when both exist.
 */
const KINDS: readonly (readonly [string, string, string?])[] = [
  [
    'pet pets animal animals',
    'dog dogs puppy cat cats kitten hamster rabbit parrot bird fish horse tortoise ferret goldfish tetra tetras betta bettas guppy guppies gecko lizard snake turtle chinchilla budgie cockatiel canary hedgehog axolotl',
  ],
  // A meal asked for ("Can you suggest a dinner recipe?") brings what one does not eat, and so
  // does a diet ("any dietary restrictions?": "I'm lactose intolerant"), one diet the others
  // ("Am I vegetarian?": "I've been pescatarian since March").
  [
    'diet diets dietary eat eats food foods vegetarian vegan pescatarian',
    'vegetarian vegan pescatarian gluten dairy lactose meat keto kosher halal',
    MEALS,
  ],
  ['allergy allergies allergic', 'allergic allergy intolerant intolerance', MEALS],
  // "home", "city" and "town" name the kind in a question, but a fact holding them is not
  // always about where one lives ("got home late"): they are cues, not the slot.
  ['live lives living reside based', 'live moved move relocated based', 'home city town'],
  [
    'job work works career occupation profession employer',
    'job work works hired employer career profession promoted promotion',
  ],
  // Grandchildren, siblings asked about, the one told: "my grandson Felix", "my sister Noor".
  ['grandchildren grandchild grandkids grandkid', 'grandson grandsons granddaughter granddaughters'],
  ['siblings sibling', 'brother brothers sister sisters'],
  [
    'family relatives',
    'wife husband partner mother father sister brother son daughter kids children parents',
  ],
  ['hobby hobbies pastime', 'enjoy enjoys hobby play plays practice'],
  ['age old born birthday', 'born birthday years old age'],
  // "What is my cat's name?" / "a cat called Biscuit": the stemmer joins name and named only.
  ['name names named', 'named called'],
  ['book books', 'novel novels memoir'],
  ['phone phones', 'iphone smartphone android'],
  // A degree asked about, the one told: "finished my master's in statistics".
  [
    'degree degrees qualification qualifications',
    'master masters bachelor bachelors phd doctorate diploma mba graduated',
  ],
  // What one earns, told as a salary or a wage: "How much do I earn?", "My salary is 4,100 a month".
  [
    'salary salaries income wage wages earn earns earned earning',
    'salary income wage wages earn earns earned paid',
  ],
  // A room asked about ("Which rooms did I paint?"), the one told: "painted the kitchen".
  [
    'room rooms',
    'kitchen kitchens bathroom bathrooms bedroom bedrooms hallway hallways lounge garage attic loft basement cellar nursery conservatory',
  ],
  // An exam asked about ("Did I get my exam result?"), its outcome told: "I passed the N5!".
  ['exam exams', 'passed failed'],
  // A race asked about ("How many races have I run?"), the one told: "ran my first half marathon".
  ['race races', 'marathon marathons 10k 5k triathlon triathlons'],
  // A season asked about, the months a memory dates its events by ("in the summer": "drove to
  // the Alps in July 2025"), the northern hemisphere's. Not "spring" and "fall", which are other
  // words as often, nor "may", a verb.
  ['summer summers summertime', 'june july august'],
  ['autumn autumns', 'september october november'],
  ['winter winters wintertime', 'december january february'],
  // A plant asked about ("How many plants did I get?"), the one told by its name: "a pothos
  // cutting", "a fiddle-leaf fig". Not "lily", "ivy" or "palm", as often a name or a hand.
  [
    'plant plants houseplant houseplants',
    'pothos monstera fern ferns succulent succulents cactus cacti orchid orchids ficus fig figs philodendron peperomia begonia begonias calathea aloe bonsai herbs seedlings',
  ],
  // Not "keyboard" (a computer's) nor "bass" (a fish): seldom an instrument's only word.
  [
    'instrument instruments',
    'guitar guitars piano pianos violin violins ukulele cello drums flute saxophone trumpet clarinet banjo harp',
  ],
];

/**
 * Words for the same thing, one group a line: a family member by name and by role ("my
 * dad" / "my father"), British and American words ("flat" / "apartment", "holiday" /
 * "vacation") and everyday short forms ("TV"). Any of a group asked bridges to the others.
 */
const SAME = [
  'father dad daddy',
  'mother mom mum mommy mummy',
  'grandmother grandma granny',
  'grandfather grandpa granddad',
  'husband hubby',
  'children kids',
  'apartment flat',
  'vacation holiday holidays',
  'aquarium aquariums tank tanks',
  'movie movies film films',
  'tv television',
  'car vehicle',
  'bike bicycle',
  'phone cellphone smartphone',
  'doctor physician gp',
  'medication medications medicine medicines meds tablets pills',
  'vet veterinarian',
  'dog dogs puppy puppies',
  'cat cats kitten kittens',
  'wedding weddings married marry marriage',
  'relax unwind destress decompress',
];

/**
 * Irregular plurals: a noun's singular and its plural, which the english stemmer keeps apart
 * ("knives" -> knive, "knife" -> knife; "women" / "woman"). Read as SAME: either form asked
 * bridges to the other. Left out: plurals that are also other words' forms ("leaves", "lives"
 * of to leave, to live; "halves" beside the "half" of "half marathon"), and "child": a memory
 * says it of one's own childhood ("as a child") more than of one's children, and "children"
 * bridges to "kids" already (SAME; with "child", the LoCoMo development split lost two
 * questions about someone's children at 300 / 1,000 tokens).
 */
const PLURALS = [
  'knife knives',
  'wife wives',
  'shelf shelves',
  'loaf loaves',
  'wolf wolves',
  'thief thieves',
  'scarf scarves',
  'calf calves',
  'man men',
  'woman women',
  'foot feet',
  'tooth teeth',
  'goose geese',
  'mouse mice',
  'person people',
  'cactus cacti',
];

/**
 * A question asking what something cost, what was spent or paid ("How much did I spend on
 * running shoes?", "how much was the flight?", "what did the repair cost?"), and the words an
 * amount paid is told with ("bought ... for 55 dollars", "paid 40 euros"): the currencies'
 * names and the verbs of buying. Asked by its phrase, not by a word alone: "how did she spend
 * the weekend?" asks no amount.
 */
const AMOUNT_ASKED =
  /\bhow\s+much\b[^?.!]*\b(?:spend|spent|spending|pay|paid|paying|cost|costs|costing|charge|charged|price|priced|owe|owed)\b|\bhow\s+much\s+(?:money\s+)?(?:was|were|is|are)\b|\bwhat\s+(?:did|does|do|will|would)\b[^?.!]*\bcost\b|\bwhat\s+(?:was|is)\s+the\s+(?:price|cost)\b/i;
const AMOUNT = 'dollar dollars euro euros pound pounds buck bucks paid cost price bought';

/** True when a question asks for an amount paid (AMOUNT_ASKED). */
export const asksAmount = (text: string) => AMOUNT_ASKED.test(text);

/**
 * Irregular verbs: the plain forms a question asks with ("What did she buy?", "Who did he
 * meet?") | the past forms a memory tells it in ("bought", "met"). The english stemmer joins a
 * regular verb's forms (visited, visits -> visit), not these. Left out: verbs whose forms are
 * stop words (be, have, do), "say" (every "X said that" fact holds "said"), forms that are
 * also common other words or names ("left", "rose", "lay", "led", "bit", "shot", "lit",
 * "born", "drew"), and the most frequent verbs (go, get, make, take, come, see, give, find,
 * think, know, feel, tell, ...): their past forms are in so many memories that matching them
 * tells little (with them keyword recall on the LoCoMo development split fell at 300 tokens,
 * 0.762 -> 0.758, multi-hop 0.505 -> 0.471; with the verbs kept one question of 383 moves).
 */
const IRREGULAR = `buy buys buying|bought
eat eats eating|ate eaten
meet meets meeting|met
win wins winning|won
pay pays paying|paid
spend spends spending|spent
sell sells selling|sold
teach teaches teaching|taught
catch catches catching|caught
build builds building|built
drive drives driving|drove driven
ride rides riding|rode ridden
fly flies flying|flew flown
sleep sleeps sleeping|slept
swim swims swimming|swam swum
sing sings singing|sang sung
choose chooses choosing|chose chosen
break breaks breaking|broke broken
wear wears wearing|wore worn
grow grows growing|grew grown
lend lends lending|lent
steal steals stealing|stole stolen
forget forgets forgetting|forgot forgotten
hide hides hiding|hid hidden
feed feeds feeding|fed
fight fights fighting|fought
dig digs digging|dug
freeze freezes freezing|froze frozen
hang hangs hanging|hung
drink drinks drinking|drank drunk
ring rings ringing|rang rung
blow blows blowing|blew blown
tear tears tearing|tore torn
sink sinks sinking|sank sunk
sting stings stinging|stung
swing swings swinging|swung
weep weeps weeping|wept
bend bends bending|bent
forgive forgives forgiving|forgave forgiven
run runs running|ran`
  .split('\n')
  .map((line) => line.split('|') as [string, string]);

/**
 * Words that tell a change of a thing ("we switched from Drizzle to Kysely", "I moved my tasks
 * to Todoist", "sold the Honda"): current-state.ts changedSince.
 */
const CHANGE =
  'switch switched moved replace replaced migrate migrated swap swapped upgrade upgraded sold instead died passed quit';

/** The phrases that make a question one about how things are now. */
const STATE_PHRASES = [
  'now',
  'currently',
  'current',
  'these days',
  'nowadays',
  'at the moment',
  'at present',
  'still',
  'anymore',
  'any more',
  'latest',
  'most recent',
  'so far',
  'to date',
];

/**
 * Queries about how things are now: the newest memory of a slot wins (current-state.ts). Not the
 * still of a set phrase: "still life" (the painting), "still water" (the drink).
 */
export const CURRENT_STATE = new RegExp(
  `\\b(?!still\\s+(?:life|lifes|waters?)\\b)(?:${STATE_PHRASES.join('|')})\\b`,
  'i',
);

/**
 * A count of the asker's own, asked in the present: "How many half marathons have I run?",
 * "How many hens do I keep?", "How many members are vegan in my book club?". Its answer is
 * the newest count she gave, as for a question with "now"; not a count asked in the past
 * ("How many did I run in 2023?") or of someone else ("How many has Theo run?").
 */
const COUNT_NOW =
  /\bhow\s+(?:many|much)\b[^?.!]*?\b(?:(?:have|has)\s+(?:i|we)|(?:do|does)\s+(?:i|we)\s+(?:have|own|keep)|(?:is|are)\s+(?:[^?.!]*\s)?(?:my|our))\b/i;

/** A question about how things are now (CURRENT_STATE), or a count of the asker's own asked in the present (COUNT_NOW). */
export const asksCurrentState = (text: string) => CURRENT_STATE.test(text) || COUNT_NOW.test(text);

/** Derivational endings cut from a lexeme to find its root (longest first). */
const SUFFIXES = [
  'ations',
  'ation',
  'ities',
  'ship',
  'ness',
  'ment',
  'ings',
  'ity',
  'ies',
  'ing',
  'ic',
  'al',
  'ed',
  'er',
  'i',
  'y',
  'e',
  's',
];
const MIN_ROOT = 4;
/** Stored lexemes taken per root. */
const PER_ROOT = 6;

/** An irregular verb's lexemes: its plain forms' and its past forms'. */
interface VerbLexemes {
  plain: string[];
  past: string[];
}

interface KindLexemes {
  /** Words naming the kind in a question, and of its slot. */
  keys: string[];
  answers: string[];
  /** Words naming the kind in a question only. */
  cues: string[];
}

/** True when the question's lexemes name the kind. */
const names = (k: KindLexemes, have: ReadonlySet<string>) => [...k.keys, ...k.cues].some((t) => have.has(t));

/** The lexemes of the kinds, phrases and word lists above, read once per process in one statement. */
let lexicon:
  | Promise<{
      kinds: KindLexemes[];
      state: Set<string>;
      verbs: VerbLexemes[];
      same: string[][];
      change: string[];
      amount: string[];
    }>
  | undefined;

function lexemes(q: Sql) {
  lexicon ??= lexemeLists(q, [
    ...KINDS.flatMap(([keys, answers, cues]) => [keys, answers, cues ?? '']),
    STATE_PHRASES.join(' '),
    ...IRREGULAR.flat(),
    ...SAME,
    ...PLURALS,
    CHANGE,
    AMOUNT,
  ])
    .then((lists) => {
      let at = 0;
      const next = () => lists[at++] ?? [];
      const kinds = KINDS.map(() => ({ keys: next(), answers: next(), cues: next() }));
      const state = new Set(next());
      const verbs = IRREGULAR.map(() => {
        const plain = next();
        return { plain, past: next().filter((x) => !plain.includes(x)) };
      });
      const same = [...SAME, ...PLURALS].map(next);
      return { kinds, state, verbs, same, change: next(), amount: next() };
    })
    .catch((err) => {
      lexicon = undefined;
      throw err;
    });
  return lexicon;
}

/** The lexemes of each text under the english configuration, in one statement (queryLexemes' for many). */
async function lexemeLists(q: Sql, texts: readonly string[]): Promise<string[][]> {
  const rows = await q.query<{ l: string[] }>(
    `SELECT to_jsonb(ARRAY(SELECT lexeme FROM unnest(to_tsvector('english', x.t)) ORDER BY lexeme)) AS l
     FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS x(t, i) ORDER BY x.i`,
    [JSON.stringify(texts)],
  );
  return rows.map((r) => r.l);
}

const kindLexemes = async (q: Sql): Promise<KindLexemes[]> => (await lexemes(q)).kinds;

/** The lexemes of the words that make a question one about how things are now. */
export const currentStateLexemes = async (q: Sql): Promise<Set<string>> => (await lexemes(q)).state;

/** The lexemes of the words that tell a change of a thing (CHANGE). */
export const changeLexemes = async (q: Sql): Promise<string[]> => (await lexemes(q)).change;

/** The root of a lexeme, or undefined when it is too short to cut. */
export function lexemeRoot(lexeme: string): string | undefined {
  for (const s of SUFFIXES)
    if (lexeme.endsWith(s) && lexeme.length - s.length >= MIN_ROOT) return lexeme.slice(0, -s.length);
  return lexeme.length >= MIN_ROOT + 1 ? lexeme : undefined;
}

/** Every lexeme that names a kind in a question (its keys and cues: "live", "job", "work", "city"). */
export async function kindWords(q: Sql): Promise<Set<string>> {
  return new Set((await kindLexemes(q)).flatMap((k) => [...k.keys, ...k.cues]));
}

/** Words after "what" / "which" that ask no thing ("what is", "which of", "what do I"). */
const NOT_ASKED = new Set(
  `is are was were be been do does did has have had will would can could should shall may might
i you he she it we they me my your his her its our their the a an this that these those of about
else`.split(/\s+/),
);

/**
 * "How many X" / "how much X": the noun counted, the last word before the verb ("How many
 * winter sea swims have I done?": swims). Not "times": what is counted then is the rest.
 */
const COUNTED =
  /\bhow\s+(?:many|much)\s+(?:[\p{L}][\p{L}'’-]*\s+){0,3}?([\p{L}][\p{L}'’-]*)\s+(?:have|has|had|do|does|did|am|is|are|was|were|can|could|will|would|should)\b/iu;

/**
 * The word a "what X" / "which X" question asks about ("What shifts do I work now?": shifts;
 * "Which kind of car ...": car), or the noun a "how many X" question counts ("How many hens
 * do I keep?": hens), or undefined ("What is my job now?", "Where do I live?", "How many times
 * have I been there?").
 */
export function askedWord(text: string): string | undefined {
  const m = /\b(?:what|which)\s+(?:(?:kinds?|sorts?|types?)\s+of\s+)?([\p{L}][\p{L}'’-]*)/iu.exec(text);
  const word = (m?.[1] ?? COUNTED.exec(text)?.[1])?.toLowerCase();
  return word && !NOT_ASKED.has(word) && word !== 'times' ? word : undefined;
}

/**
 * The slot a current-state question asks about: every lexeme of the kinds its terms name
 * (for "where does she live now": live, move, relocate, ...), or none.
 */
export async function slotLexemes(q: Sql, terms: readonly string[]): Promise<string[]> {
  const have = new Set(terms);
  const out = new Set<string>();
  for (const k of await kindLexemes(q))
    if (names(k, have)) for (const x of [...k.keys, ...k.answers]) out.add(x);
  return [...out];
}

/**
 * Lexemes to add to a query's own (none already in it), best bridges first: the answers of
 * the kinds its terms name (and of an amount paid, when its `text` asks one), and the owner's
 * stored fact and episode lexemes that share the root of a query lexeme (at most PER_ROOT per
 * root, most frequent first).
 */
export async function expandTerms(
  q: Sql,
  scope: SearchScope,
  terms: readonly string[],
  text = '',
): Promise<string[]> {
  if (!terms.length) return [];
  const have = new Set(terms);
  const out = new Set<string>();
  const { kinds, verbs, same, amount } = await lexemes(q);
  for (const k of kinds) if (names(k, have)) for (const a of k.answers) if (!have.has(a)) out.add(a);
  if (asksAmount(text)) for (const a of amount) if (!have.has(a)) out.add(a);
  for (const group of same)
    if (group.some((t) => have.has(t))) for (const x of group) if (!have.has(x)) out.add(x);
  // An irregular verb asked in a plain form: its other forms (a memory tells it in the past).
  for (const v of verbs)
    if (v.plain.some((t) => have.has(t)))
      for (const x of [...v.plain, ...v.past]) if (!have.has(x)) out.add(x);
  const roots = [...new Set(terms.map(lexemeRoot).filter((r): r is string => r !== undefined))];
  if (roots.length) {
    // The range lets the primary key narrow the scan; left() is the exact test. Its upper
    // bound is the root and the largest code point, U+10FFFF, after every character a
    // lexeme holds ("fiancé" for the root "fianc": under the C collation 'é' sorts after any
    // ASCII letter).
    const rows = await q.query<{ term: string }>(
      `SELECT DISTINCT s.term FROM jsonb_array_elements_text($5::jsonb) AS r(root)
       CROSS JOIN LATERAL (
         SELECT term FROM search_counts
         WHERE tenant_id = $1 AND app_id = $2 AND project_id = $3 AND kind IN ('fact', 'episode')
           AND owner_id = $4 AND term >= r.root AND term <= r.root || chr(1114111)
           AND left(term, length(r.root)) = r.root AND length(term) <= length(r.root) + 6
         GROUP BY term HAVING sum(docs) > 0
         ORDER BY sum(docs) DESC, term LIMIT ${PER_ROOT}) s
       ORDER BY s.term`,
      [scope.tenantId, scope.appId, scope.projectId, scope.ownerId, JSON.stringify(roots)],
    );
    for (const r of rows) if (!have.has(r.term)) out.add(r.term);
  }
  return [...out];
}
