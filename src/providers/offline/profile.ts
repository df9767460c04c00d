/**
 * Profile observations for the humans of a segment: explicit information from
 * first-person patterns in their own sentences ("I work as", "my sister", "I love"),
 * and implicit traits from simple, evidence-counted heuristics (many questions ->
 * curious). Each item carries the ids of the messages it rests on.
 */
import type { ExplicitInfo, ImplicitTrait, ProfileObservation } from '../../core/ports.js';
import { BIDDING, type MessageView, withoutRequest } from './analyze.js';
import { lowerFirst, namedRelations } from './facts.js';
import { ANIMALS, RELATIVES } from './nouns.js';
import { toThirdPerson } from './rewrite.js';
import { capitalize, terminate, truncate } from './text.js';

/** Categories of explicit information, in the order patterns are tried. */
export const PROFILE_CATEGORIES = [
  'identity',
  'occupation',
  'work',
  'education',
  'pet',
  'diet',
  'allergy',
  'relationship',
  'location',
  'health',
  'plan',
  'hobby',
  'preference',
  'other',
] as const;
export type ProfileCategory = (typeof PROFILE_CATEGORIES)[number];

const OCCUPATIONS =
  'teacher|nurse|doctor|engineer|developer|programmer|designer|artist|writer|student|manager|lawyer|chef|cook|counsel(?:l)?or|therapist|accountant|musician|photographer|scientist|researcher|consultant|firefighter|police officer|officer|driver|pilot|farmer|mechanic|electrician|plumber|architect|dentist|pharmacist|professor|intern|freelancer|entrepreneur|founder|volunteer|veterinarian|social worker|athlete|coach|barista|cashier|analyst|editor|journalist|actor|actress|dancer|singer|baker|carpenter|librarian|paramedic|soldier|streamer|gamer|author|tutor';

/** Pastimes a person keeps up, as verbs. */
const PASTIMES =
  'run|jog|swim|cycle|bike|hike|walk|climb|surf|ski|skate|row|dance|sing|paint|draw|knit|sew|bake|cook|read|write|garden|meditate|train|lift';
const PASTIMES_ING =
  'running|jogging|swimming|cycling|biking|hiking|walking|climbing|surfing|skiing|skating|rowing|dancing|singing|painting|drawing|knitting|sewing|baking|cooking|reading|writing|gardening|meditating|training|lifting';

/** Pastimes named by a noun ("doing yoga", "I do pilates"). */
const PRACTICES =
  'yoga|pilates|tai chi|karate|judo|taekwondo|boxing|kickboxing|crossfit|zumba|ballet|martial arts|fencing|archery|bouldering|rock climbing|salsa|aerobics';

/** [category, pattern over the lower-cased first-person sentence]; first match wins. */
const PATTERNS: [ProfileCategory, RegExp][] = [
  [
    'identity',
    /\bmy name is\b|\bi(?:'m| am) (?:a |an )?(?:trans(?:gender)?(?: woman| man)?|gay|lesbian|bisexual|bi|queer|non-?binary|pansexual|asexual|christian|muslim|jewish|buddhist|hindu|atheist|introvert|extrovert|left-handed|right-handed|ambidextrous|\d{1,3} years old|(?:single )?(?:mom|mother|dad|father|parent)|immigrant)\b|\bi(?:'m| am) \d{1,2}(?=\s*(?:$|[,.!;]|and\b|now\b|this\b))|\bmy (?:transition|identity|pronouns|religion|faith|birthday)\b(?! (?:party|cake|present|gift|card)s?\b)|\bi(?:'m| am) turning \d{1,3}\b|\bcoming out\b|\bi (?:came out|transitioned)\b/,
  ],
  [
    'occupation',
    new RegExp(
      `\\bi (?:currently |now |still |mostly |mainly )?work (?:as|at|for|in|on)\\b|\\bi (?:currently |now |still |mostly |mainly )?work (?:[\\w-]+ ){1,6}?as (?:an? )?(?:[\\w-]+ ){0,2}(?:${OCCUPATIONS})\\b|\\bi teach (?:\\w+ )?(?:grade|school|class|classes|kindergarten|preschool|at|in|english|math|maths|science|history|music|art|yoga|piano)\\b|\\bmy (?:job|career|business|employer|startup)\\b|\\bstart(?:ed|ing|s)? (?:a|my|the) (?:new )?job\\b|\\b(?:job|position|role|career) as (?:an? )?(?:\\w+ )?(?:${OCCUPATIONS})\\b|\\bi(?:'m| am) (?:an? )?(?:[\\w-]+ ){0,2}(?:${OCCUPATIONS})\\b|\\bi(?:'ve| have) been an? (?:[\\w-]+ ){0,2}(?:${OCCUPATIONS})\\b|\\bi(?:'ve| have) been (?:working|teaching) (?:as|at|for)\\b|\\bi (?:worked|used to work) (?:[\\w-]+ ){0,3}as (?:an? )?\\w|\\bgot (?:a|the|my) (?:new )?job\\b|\\bpromot(?:ed|ion)\\b|\\bi (?:got hired|quit my job|was laid off|retired)\\b|\\bi have (?:\\w+ )?(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|fifteen|twenty) years? of (?:\\w+ )?experience\\b|\\b(?:i|we) (?:run|own) (?:a|an|my|our) (?:[\\w-]+ ){0,2}(?:business|bakery|shop|store|cafe|café|restaurant|company|firm|startup|studio|practice|salon|farm|agency|clinic|bar|pub|gym|brewery|bookshop|bookstore)\\b`,
    ),
  ],
  // What a job is like (shifts, colleagues, the boss): several at once, where the occupation
  // is one (engine/memory/profile.ts: a newer occupation replaces the older).
  [
    'work',
    /\bmy (?:boss|company|co-?workers?|colleagues?|office|shifts?|clients?|team lead|tech lead|supervisor|mentor|manager|workplace)\b|\b(?:night|day|morning|evening|late|early|double|weekend|\d+-hour) shifts?\b/,
  ],
  [
    'education',
    /\bmy (?:\w+ ){0,2}(?:degree|major|classes|class|courses?|thesis|dissertation|exams?|quiz(?:zes)?|midterms?|finals|coursework|assignments?|lectures?|school|college|university|studies|edu|education|professor|teacher|tutor|grades)\b(?! (?:friends?|buddies|pals?|mates?|roommates?|days|years|reunion|sweetheart|team)\b)|\bi(?:'m| am) (?:studying|majoring|enrolled)\b|\bi (?:study|graduated|enrolled)\b|\bgrad(?:uate)? school\b|\bsemester\b|\bi(?:'m| am) (?:in|at) (?:college|university|school)\b/,
  ],
  [
    'pet',
    new RegExp(
      `\\b(?:my|our) (?:\\w+ )?(?:${ANIMALS})\\b|\\b(?:have|own|adopted|adopting|rescued|got|getting|get) (?:(?:her|him|them|us|me|(?:my|our) \\w+) )?(?:a|an|another|two|three|\\d+) (?:\\w+ )?(?:${ANIMALS})\\b|\\b(?:${ANIMALS}) (?:is )?(?:named|called)\\b|\\b(?:adopted|rescued) (?:a|an) (?!(?:baby|boy|girl|child|son|daughter|kid|little (?:boy|girl))\\b)[\\w-]+(?: [\\w-]+)? (?:named|called)\\b`,
    ),
  ],
  [
    'diet',
    /\b(?:i(?:'m| am|'ve been| have been)|we(?:'re| are|'ve been| have been)) (?:a |an |all |strictly |mostly |fully )?(?:vegetarian|vegan|pescatarian|flexitarian|keto|paleo|gluten-free|dairy-free|kosher|halal|teetotal)\b|\bi (?:don't|do not|never|no longer|can't|cannot) (?:eat|drink)\b|\bmy diet\b|\bi(?:'m| am) on (?:a|the) [\w-]+ diet\b|\bi(?:'m| am)? (?:trying to )?(?:avoid(?:ing)?|gave up|giv(?:e|ing) up|cut(?:ting)? (?:out|down on|back on)) (?:on )?(?:red meat|meat|dairy|gluten|sugar|alcohol|caffeine|carbs)\b|\bi(?:'ve| have)? (?:stopped|quit) eating (?:red meat|meat|pork|beef|chicken|fish|seafood|eggs|dairy|cheese|gluten|wheat|bread|sugar|sweets|chocolate|carbs|junk food|fast food|processed food)\b/,
  ],
  ['allergy', /\ballerg(?:y|ies|ic)\b|\bintoleran(?:t|ce)\b|\banaphyla\w*/],
  [
    'relationship',
    new RegExp(
      // Not a thing named for them: "my family plan", "my family doctor".
      `\\b(?:my|our) (?:${RELATIVES})\\b(?! (?:plan|doctor|dentist|car|house|home|business|tree|name|recipe|room|history|account)\\b)|\\bi(?:'m| am) (?:married|single|divorced|engaged|dating|widowed|pregnant)\\b|\\bi(?:'ve got| have got| have) (?:\\w+ )?(?:kids|children|sons?|daughters?|siblings|brothers?|sisters?)\\b|\\bbreak ?up\\b|\\b(?:got|getting) (?:married|engaged|divorced)\\b|\\bbeen (?:married|together)\\b|\\b(?:the|our|my) baby is due\\b|\\b(?:i'm|i am|we're|we are) expecting (?:a|our|my) (?:\\w+ )?(?:baby|child|son|daughter|twins)\\b|\\b(?:i'm|i am|we're|we are) having (?:a|our|another) (?:baby|girl|boy|son|daughter|twins)\\b(?! (?:shower|party)\\b)|\\b(?:i'm|i am|we're|we are|we've been|i've been) trying (?:for a baby|to (?:have a baby|get pregnant|conceive))\\b`,
    ),
  ],
  [
    'location',
    /\b(?:i|we) (?:used to )?live (?:in|near|at|on|with)\b|\bwe(?:'re| are) (?:based in|living in)\b|\bi(?:'m| am) (?:from|based in|living in|originally from)\b|\bi(?:'ve| have) (?:been )?liv(?:ed|ing) (?:in|near|at|on)\b|\b(?:i|we)(?: just| recently| finally)? (?:moved|relocated)(?: back)? (?:to|from|here|in(?:to)?)\b|\b(?:i|we)(?:'m|'re| am| are) (?:moving|relocating) (?:to|into|out)\b|\bmy (?:home ?town|home country|neighbou?rhood|city|apartment|house|country|(?:new |home )?address|landlord|landlady|rent|lease|mortgage|(?:flat|room|house)mates?)\b|\bi grew up\b/,
  ],
  [
    'health',
    /\bmy (?:doctor|therapist|therapy|health|diagnosis|symptoms|surgery|injury|medication|meds)\b|\b(?:going to|go to|started|attending|attend|in) (?:couples |group )?therapy\b|\bburn(?:t|ed) out\b|\bi(?:'m| am) (?:sick|ill|injured|recovering|colou?r-?blind|deaf|hard of hearing|dyslexic|diabetic|epileptic|asthmatic|autistic|an(?:a)?emic|insomniac)\b|\bi (?:broke|hurt|injured|sprained|was diagnosed)\b|\bi had (?:\w+ )?surgery\b|\bi (?:quit|stopped|gave up) (?:smoking|vaping|drinking)\b|\bdiagnosed\b|\b(?:my )?(?:anxiety|depression|migraines?|asthma|diabetes|cholesterol|blood pressure|blood sugar)\b|\bi have (?:adhd|dyslexia|epilepsy|arthritis|ibs|c(?:o)?eliac|tinnitus|insomnia|eczema|psoriasis|crohn's|lupus)\b|\b(?:in|into|out of) (?:the )?hospital\b|\bhospitali[sz]ed\b|\b(?:went|go|going|taken|rushed|admitted) (?:\w+ )?to (?:the )?hospital\b|\bmy (?:\w+ )?(?:pediatrician|paediatrician|physio(?:therapist)?|dentist|gp|check-?up)\b|\bseeing a (?:therapist|counsel(?:l)?or|psychiatrist|psychologist|physio(?:therapist)?)\b/,
  ],
  [
    'plan',
    /\bi(?:'m| am) (?:going to|gonna|planning|thinking (?:about|of)|hoping to|about to|looking forward|getting ready|saving (?:up )?for|training for|preparing for)\b|\bi plan\b|\bi(?:'ll| will) (?!be (?:glad|happy|fine|okay|ok)\b)\w+|\bi want to\b|\bi(?:'d| would) (?:like|love) to\b|\bmy (?:goal|plan|dream)\b|\bwe(?:'re| are) (?:going to|gonna|planning|thinking (?:about|of))\b|^gonna\b|\bi(?:'m| am) considering\b/,
  ],
  [
    'hobby',
    new RegExp(
      [
        "\\bmy (?:hobby|hobbies|passion|free time|spare time)\\b|\\bin my (?:free|spare) time\\b|\\bi (?:\\w+ )?volunteer (?:at|with|for|in)\\b|\\bi(?:'ve| have)?(?: been)? (?:\\w+ )?(?:started |began )?volunteering (?:at|with|for|in)\\b",
        // An activity named by its gerund after a verb of liking or practice ("I enjoy
        // climbing", "we took up sailing", "I go fishing on Sundays").
        "\\b(?:i|we)(?:'ve| have)? (?:\\w+ )?(?:love|like|enjoy|took up|take up|practi[cs]e|go|went) (?!going\\b|being\\b|having\\b|getting\\b|doing\\b|making\\b)[a-z]{3,}ing\\b",
        '\\b(?:i|we) (?:\\w+ )?play (?:the )?[a-z]+\\b',
        // A pastime kept up: "I usually run 20 miles a week", "I've been reading a lot lately".
        `\\b(?:i|we) (?:usually |often |regularly |always |still )?(?:${PASTIMES})s?\\b(?:\\s+[\\w,'-]+){0,5}\\s+(?:every|each|a|per|twice a|three times a) (?:day|week|weekend|morning|evening|night|month)\\b`,
        `\\bi(?:'ve| have) been (?:\\w+ )?(?:${PASTIMES_ING}) (?:a lot|lately|recently|more|every|again)\\b`,
        // Taken up: "I started running three mornings a week".
        `\\b(?:i|we)(?:'ve| have)? (?:just |recently )?(?:started|began|taken up|took up|picked up) (?:${PASTIMES_ING})\\b`,
        // A practice named by its noun: "I've been doing yoga three times a week", "I do pilates".
        `\\b(?:i|we)(?:'ve| have)?(?: been)? (?:\\w+ )?(?:do|doing|did|practi[cs]e|practi[cs]ing|took up|take up|taken up|started|go to|going to) (?:some )?(?:${PRACTICES})\\b`,
        // A class or club of a pastime: "I've been going to a pottery class every Wednesday".
        `\\b(?:go|goes|going|went|been|take|takes|taking|took|join|joined|joining|start|started|starting|signed up for|sign up for|attend|attends|attending|attended|enrolled in|do|doing) (?:to |in |for )?(?:(?:a|an|my|the|our|some|weekly|weekend|evening|morning|local|new|beginners?) )*(?:${PRACTICES}|pottery|ceramics|dance|dancing|painting|drawing|art|cooking|baking|knitting|sewing|singing|guitar|piano|swimming|photography|woodworking|woodturning|book|running|cycling|hiking|climbing|chess) (?:class|classes|lessons|course|club|group|choir|workshop)\\b`,
        // A skill or a language she is learning: "I started learning to juggle", "I'm learning
        // Japanese". Not "learning to live with it".
        "\\b(?:i|we)(?:'m| am|'ve been| have been| started| began| just started)? (?:\\w+ )?learning (?:(?:how )?to (?:play|speak|cook|bake|draw|paint|knit|crochet|sew|code|program|swim|dance|sing|ski|snowboard|surf|skate|sail|ride|juggle|climb|garden|sign|write|read music)\\b|(?:the )?(?:piano|guitar|violin|cello|drums|ukulele|flute|saxophone|trumpet|harp|french|spanish|german|italian|portuguese|japanese|chinese|mandarin|cantonese|korean|arabic|russian|dutch|greek|hindi|turkish|swedish|polish|hebrew|sign language|asl|bsl)\\b)",
        // A race run: "I ran my first half marathon", "I ran the Berlin marathon in 3:52", "I did
        // my first race" (not "the race" alone: any race).
        '\\b(?:i|we) (?:just |finally )?(?:ran|finished|completed|did) (?:(?:the|a|my|our) (?:[\\w-]+ ){0,2}(?:half[- ])?(?:marathon|10k|5k|triathlon|ultra)|(?:my|our) first race)\\b',
      ].join('|'),
    ),
  ],
  [
    'preference',
    /\bi (?:really |absolutely |totally |just |also |kinda |truly )?(?:love|like|enjoy|adore|prefer|hate|dislike|can't stand|despise|appreciate)\b|\bmy favou?rite\b|\bi (?:always |usually )?(?:take|drink|have) my (?:coffee|tea)\b|\bi(?:'m| am) (?:keen on|into|passionate about|a (?:big |huge )?fan of|obsessed with|not a fan of)\b/,
  ],
];

/** "I'm <Capitalised word(s)>" ending its clause: who or what she is by name. */
const SAYS_WHO = /\bI(?:'m| am) [A-Z][a-z]+(?: [A-Z][a-z]+)?\s*(?:[,.!;]|$)/;

/** Classifies a first-person sentence, or null when it says nothing about the speaker. */
export function classify(core: string): ProfileCategory | null {
  const lower = core.toLowerCase().replace(/[’]/g, "'");
  if (!/\b(?:i|i'm|i've|i'd|i'll|my|me|we|we're|our)\b|^gonna\b/.test(lower)) return null;
  // "I'm Sofia.", "I am Portuguese.": a name or a nationality, capitalised as the sentence has it.
  if (SAYS_WHO.test(core.replace(/[’]/g, "'"))) return 'identity';
  // The pattern matching earliest in the sentence names what it is mainly about.
  let best: { category: ProfileCategory; at: number } | null = null;
  for (const [category, re] of PATTERNS) {
    const m = re.exec(lower);
    if (m && (!best || m.index < best.at)) best = { category, at: m.index };
  }
  return best?.category ?? null;
}

/**
 * A note about someone else worth keeping ("Carol's cat is called Pixel", "Dan's sister
 * lives in Oslo"): a named person's animal or relative.
 */
const NOTE = new RegExp(`\\b[A-Z][\\p{L}-]+'s (?:\\w+ )?(?:(${ANIMALS})|(?:${RELATIVES}))\\b`, 'u');

/**
 * The category of a sentence she said with her "I" left out ("Just got promoted to team lead",
 * "Thinking of getting a dog"), read as she would have said it in full: the rewrite supplied the
 * subject ("Rui just got promoted ...", "Rui is thinking of ..."), which is put back in the
 * first person ("I just got promoted ...", "I'm thinking of ...").
 */
function classifyElliptic(s: { firstPerson: boolean; core: string; text: string }, speaker: string) {
  if (!s.firstPerson || !s.text.startsWith(`${speaker} `) || /^(?:i|i'm|my|we|our)\b/i.test(s.core))
    return null;
  const rest = s.text.slice(speaker.length + 1);
  return classify(/^is\b/.test(rest) ? `I'm${rest.slice(2)}` : `I ${rest}`);
}

/** The category of a third-person note about a named person, or null. */
export function classifyNote(core: string): ProfileCategory | null {
  const m = NOTE.exec(core.replace(/[’]/g, "'"));
  if (!m) return null;
  return m[1] ? 'pet' : 'relationship';
}

const MAX_ITEMS = 24;
const MAX_PER_CATEGORY = 4;

/** Splits "I love hiking, and I'm planning a trip" into clauses with their own subject. */
export function clauses(core: string): string[] {
  // Only a sentence that opens in the first person splits: "They built it, and I love
  // their work" keeps its context.
  if (!/^(?:\W*)(?:i|i'm|i've|i'd|i'll|my|we|we're|our)\b/i.test(core)) return [core];
  // Not a subject joined to "I" ("My husband and I are celebrating ...": one clause).
  if (/^\W*(?:my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+\s+(?:and|&)\s+(?:i|we)\b/i.test(core)) return [core];
  const parts = core
    .split(/,?\s+(?:and|but|so|while|plus)\s+(?=(?:i|i'm|i've|i'll|i'd|my|we|we're)\b)|;\s+/i)
    .map((c) => c.trim())
    .filter(Boolean);
  // A later clause leaning on the earlier one ("and I hope to finish it soon", "but I love
  // him") keeps them together.
  return parts
    .slice(1)
    .some((p) => /\b(?:it|this|that|them|these|those|there|he|she|him|her|his|hers)\b/i.test(p))
    ? [core]
    : parts;
}

/** A clause that names someone or something ("his name is Pretzel", "called Tofu"). */
const NAMING = /\b(?:name is|name's|named|called)\b/i;
/** Where a comment on what was just said begins: a clause opening with a pronoun for it. */
const COMMENT =
  /,?\s+(?:and|but|so)\s+(?=(?:he|she|it|they|it's|that's|this|which|his|her|its|their)\b)|,\s+(?=(?:he|she|it|they|it's|that's|this|which|his|her|its|their)\b)/i;

/**
 * The part of a clause a profile item keeps: up to the last piece that says what the
 * category is about or names it; the comment trailing it goes ("I adopted a rescue dog, his
 * name is Pretzel, he already chewed my sofa, it's been chaos" -> "I adopted a rescue dog,
 * his name is Pretzel"). The facts keep the whole sentence.
 */
export function essentials(part: string, category: ProfileCategory): string {
  const pieces = part.split(COMMENT).map((p) => p.trim());
  if (pieces.length < 2) return part;
  const re = PATTERNS.find(([c]) => c === category)?.[1];
  let last = 0;
  pieces.forEach((p, i) => {
    if (NAMING.test(p) || re?.test(p.toLowerCase().replace(/[’]/g, "'"))) last = i;
  });
  return last === pieces.length - 1 ? part : pieces.slice(0, last + 1).join(', ');
}

function explicitInfo(
  views: readonly MessageView[],
  helped: boolean,
  all: readonly MessageView[],
): ExplicitInfo[] {
  const out: ExplicitInfo[] = [];
  const seen = new Set<string>();
  const perCategory = new Map<string, number>();
  /** Whether an item of `category` still fits (MAX_PER_CATEGORY, MAX_ITEMS). */
  const room = (category: string) =>
    (perCategory.get(category) ?? 0) < MAX_PER_CATEGORY && out.length < MAX_ITEMS;
  /** Keeps an item unless one of the same description is kept already. */
  const keep = (item: ExplicitInfo) => {
    const key = item.description.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    perCategory.set(item.category, (perCategory.get(item.category) ?? 0) + 1);
    out.push(item);
  };
  for (const v of views) {
    for (const s of v.sentences) {
      if (s.filler || s.attachedTo >= 0) continue;
      // A question counts only for the statement before its request ("I'm vegan, so could you ...?").
      const core = withoutRequest(s.core);
      if (s.question && core === s.core) continue;
      const parts = clauses(core);
      for (const part of parts) {
        const rule = helped ? standingRule(part, v) : undefined;
        // Bidding the other ("Give me the address and I'll be there") says nothing of the speaker.
        if (!rule && BIDDING.test(part)) continue;
        const category = rule
          ? 'preference'
          : (classify(part) ??
            classifyNote(part) ??
            (parts.length === 1 ? classifyElliptic(s, v.speaker) : null));
        if (!category || !room(category)) continue;
        // A plan or a liking of "it" / "them" says nothing on its own ("I want to understand it
        // for a savings plan", "I'd love to use them to volunteer"); read in the clause that
        // says it, not another after a comma ("I hate coriander, it tastes like soap"). Another
        // clause of the sentence may still say something of hers ("Nothing spicy, I can't stand
        // it, and my son is allergic to nuts": her son's allergy).
        const vague = (c: ProfileCategory, text: string) =>
          (c === 'plan' || c === 'preference') && !rule && OBJECT_PRONOUN.test(saying(text, c));
        let said: { category: ProfileCategory; part: string } | undefined = { category, part };
        if (vague(category, part)) {
          said = part
            .split(/,\s+(?:and\s+|but\s+)?/)
            .map((c) => ({ category: classify(c), part: c }))
            .find(
              (c): c is { category: ProfileCategory; part: string } =>
                c.category !== null &&
                c.category !== category &&
                room(c.category) &&
                !vague(c.category, c.part),
            );
          if (!said) continue;
        }
        const kept = essentials(said.part, said.category);
        const text =
          rule ??
          (parts.length > 1 || core !== s.core || kept !== part
            ? toThirdPerson(kept, v.speaker, v.addressee).text
            : s.text);
        const description = terminate(truncate(text.replace(/\s+/g, ' ').replace(/!+/g, '.'), 300));
        keep({ category: said.category, description, message_ids: [v.msg.id] });
      }
    }
    // Someone of her life named in passing ("a surprise dinner for my wife Hannah", filed as a
    // plan): the relation and the name, unless an item of the message names them already.
    for (const { text, name, pet } of namedRelations(v)) {
      const category = pet ? 'pet' : 'relationship';
      if (
        !room(category) ||
        out.some(
          (e) => e.category === category && e.message_ids.includes(v.msg.id) && e.description.includes(name),
        )
      )
        continue;
      keep({ category, description: text, message_ids: [v.msg.id] });
    }
    // A short answer to a question about her ("Do you have any allergies?" "Just penicillin."),
    // by the kind the question asks, unless an item of the message says it already.
    const answered = shortAnswer(all, all.indexOf(v));
    if (answered && room(answered.category) && !out.some((e) => e.message_ids.includes(v.msg.id)))
      keep(answered);
  }
  return out;
}

/** Words at most in an answer filed by the kind of the question it answers. */
const SHORT_ANSWER_WORDS = 12;

/**
 * A human's short answer (its first sentence, at most SHORT_ANSWER_WORDS, no question) to the
 * question ending the message before it, from someone else, filed by the kind the question
 * asks of her, read in her own words ("Do you have any allergies?" -> "Do I have any
 * allergies?": allergy), resting on both messages; null when there is none or the question
 * asks no kind.
 */
function shortAnswer(views: readonly MessageView[], i: number): ExplicitInfo | null {
  const v = views[i]!;
  const p = views[i - 1];
  if (!p || p.msg.role === 'tool' || p.msg.sender_id === v.msg.sender_id || v.msg.role !== 'user')
    return null;
  const q = p.sentences.filter((s) => !s.filler).at(-1);
  const a = v.sentences.find((s) => !s.filler);
  if (!q?.question || !a || a.question || a.core.split(/\s+/).length > SHORT_ANSWER_WORDS) return null;
  const asked = q.core
    .replace(/\bare you\b/gi, 'am I')
    .replace(/\byours\b/gi, 'mine')
    .replace(/\byour\b/gi, 'my')
    .replace(/\byou\b/gi, 'I');
  const category = classify(asked);
  if (!category) return null;
  const answer = a.text.replace(/[.!?]+$/, '');
  return {
    category,
    description: terminate(
      `Asked by ${p.speaker} "${q.text}", ${v.speaker} answered: ${lowerFirst(answer, v.proper)}`,
    ),
    message_ids: [p.msg.id, v.msg.id],
  };
}

/** "it" / "them" / "this" / "that" as what a clause is about, not a clause's subject ("it is"). */
const OBJECT_PRONOUN =
  /\b(?:it|them|this|that|these|those)\b(?!\s+(?:is|was|are|were|has|had|will|would|can|could|'s)\b)(?![-'])/i;

/** The comma-separated clause of `part` that classify() reads as `category`; `part` when none alone does. */
function saying(part: string, category: ProfileCategory): string {
  return part.split(/[,;:\u2013\u2014]/).find((c) => classify(c) === category) ?? part;
}

/** A standing rule for an assistant ("Please don't use lodash in this repo", "Always reply in French"). */
const RULE = /^(?:please\s+)?(don't|do not|never|always)\s+([a-z][^,;]*)/i;

/**
 * A person's rule for the one they talk to, told as what she asked ("User asked Claude not to
 * use lodash in this repo"): a preference that holds beyond the moment, where a one-off
 * request ("Write me a poem") is no profile item. The clause up to its first comma.
 */
function standingRule(part: string, v: MessageView): string | undefined {
  const m = RULE.exec(part.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const how = /^do/i.test(m[1]) ? 'not' : m[1].toLowerCase();
  const what = toThirdPerson(m[2].trim(), v.speaker, v.addressee).text;
  return capitalize(`${v.speaker} asked ${v.addressee ? `${v.addressee} ` : ''}${how} to ${what}`);
}

interface TraitRule {
  trait: string;
  /** Minimum number of supporting messages. */
  min: number;
  test: (v: MessageView) => boolean;
  describe: (name: string, n: number, total: number) => string;
}

const text = (v: MessageView): string => v.msg.content.toLowerCase();
const has = (re: RegExp) => (v: MessageView) => re.test(text(v));

const TRAITS: TraitRule[] = [
  {
    trait: 'curious',
    min: 3,
    test: (v) => v.sentences.some((s) => s.question && !s.filler),
    describe: (n, k, t) => `${n} asks many questions (${k} of ${t} messages).`,
  },
  {
    trait: 'family-oriented',
    min: 2,
    test: has(
      /\b(?:my|our) (?:kids?|family|fam|husband|wife|children|son|daughter|mom|dad|parents|partner)\b/,
    ),
    describe: (n, k) => `${n} often talks about family (${k} messages).`,
  },
  {
    trait: 'optimistic',
    min: 3,
    test: has(
      /\b(?:happy|excited|grateful|thankful|hopeful|optimistic|blessed|thrilled|looking forward|can't wait|love|proud)\b/,
    ),
    describe: (n, k) => `${n} expresses positive feelings often (${k} messages).`,
  },
  {
    trait: 'under stress',
    min: 2,
    test: has(
      /\b(?:stress(?:ed|ful)?|swamped|overwhelm(?:ed|ing)|anxious|exhausted|worried|struggl(?:e|ing)|frustrat(?:ed|ing)|burn(?:ed|t) out|lonely|upset)\b/,
    ),
    describe: (n, k) => `${n} mentions stress or strain (${k} messages).`,
  },
  {
    trait: 'supportive',
    min: 2,
    test: has(
      /\b(?:proud of you|you(?:'re| are) doing (?:great|amazing|awesome)|you(?:'ll| will) be (?:a )?(?:great|awesome|amazing)|you can do|keep (?:it )?up|you(?:'ve)? got this|here for you|happy for you|so brave|inspiring)\b/,
    ),
    describe: (n, k) => `${n} encourages others (${k} messages).`,
  },
  {
    trait: 'appreciative',
    min: 3,
    test: has(/\b(?:thanks|thank you|grateful|thankful|appreciate)\b/),
    describe: (n, k) => `${n} often expresses thanks (${k} messages).`,
  },
  {
    trait: 'creative',
    min: 2,
    test: has(/\b(?:music|songs?|poems?|poetry|craft\w*|write|writing|design\w*|art|artist|creative)\b/),
    describe: (n, k) => `${n} talks about creative activities (${k} messages).`,
  },
  {
    trait: 'physically active',
    min: 2,
    test: has(/\b(?:run|running|gym|workouts?|exercis\w*|train(?:ing)?|sports?|fitness)\b/),
    describe: (n, k) => `${n} mentions physical activities (${k} messages).`,
  },
  {
    trait: 'community-minded',
    min: 2,
    test: has(
      /\b(?:volunteer\w*|charity|community|activis\w*|advoca\w*|awareness|support group|fundrais\w*)\b/,
    ),
    describe: (n, k) => `${n} cares about community and causes (${k} messages).`,
  },
  {
    trait: 'technical',
    min: 2,
    test: has(
      /\b(?:code|bug|api|deploy\w*|server|database|script|python|typescript|javascript|sql|docker|kubernetes|git|compile\w*|function)\b/,
    ),
    describe: (n, k) => `${n} discusses technical topics (${k} messages).`,
  },
];

function implicitTraits(name: string, views: readonly MessageView[]): ImplicitTrait[] {
  const out: ImplicitTrait[] = [];
  const total = views.length;
  for (const rule of TRAITS) {
    const hits = views.filter(rule.test);
    if (hits.length < rule.min) continue;
    if (rule.trait === 'curious' && hits.length / total < 0.3) continue;
    out.push({
      trait: rule.trait,
      description: rule.describe(name, hits.length, total),
      message_ids: hits.slice(0, 10).map((v) => v.msg.id),
    });
  }
  const words = views.map((v) => v.msg.content.split(/\s+/).length);
  const mean = words.reduce((a, b) => a + b, 0) / Math.max(1, total);
  if (total >= 3 && mean >= 45) {
    const ids = views.slice(0, 10).map((v) => v.msg.id);
    out.push({
      trait: 'expressive',
      description: `${name} writes long, detailed messages.`,
      message_ids: ids,
    });
  } else if (total >= 5 && mean <= 6) {
    const ids = views.slice(0, 10).map((v) => v.msg.id);
    out.push({ trait: 'concise', description: `${name} writes short messages.`, message_ids: ids });
  }
  return out;
}

/** One observation per human who spoke in the segment, in order of `humans`. */
export function extractProfiles(
  views: readonly MessageView[],
  humans: readonly string[],
): ProfileObservation[] {
  const out: ProfileObservation[] = [];
  // Standing rules are for an assistant ("never suggest meat"); between people "Always be
  // yourself!" is cheer.
  const helped = views.some((v) => v.msg.role === 'assistant');
  for (const id of new Set(humans)) {
    const own = views.filter((v) => v.msg.sender_id === id && v.msg.role === 'user');
    if (own.length === 0) continue;
    const name = own[0]?.speaker ?? id;
    out.push({
      user_id: id,
      explicit_info: explicitInfo(own, helped, views),
      implicit_traits: implicitTraits(name, own),
    });
  }
  return out;
}
