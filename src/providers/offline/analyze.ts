/**
 * Per-message analysis shared by every part of the offline extractor: who speaks, to
 * whom, and each sentence cleaned (interjections and vocatives stripped), dated
 * (relative dates made absolute), rewritten in third person and scored for how much
 * it tells about the world.
 */

import { mentionsDate, resolveRelativeDates, withYears } from '../../core/dates.js';
import type { SegmentMessage } from '../../core/ports.js';
import { escapeRegExp } from '../../core/regexp.js';
import { isHandle, ROLE_NAMES } from '../../core/senders.js';
import { heOrShe } from './coreference.js';
import {
  asksForDraft,
  asksToEdit,
  closesDraft,
  closesQuote,
  type Draft,
  opensDraft,
  opensPasted,
  recipient,
  requestedRecipient,
  splitQuoted,
  TEXT_LEAD,
  unquoted,
} from './draft.js';
import { toThirdPerson } from './rewrite.js';
import {
  keptForHer,
  ownedRole,
  selfInFirstPerson,
  splitAsk,
  splitPlease,
  splitRole,
} from './sentence-parts.js';
import { chatSpelling } from './spelling.js';
import {
  capitalize,
  contentStems,
  isContentWord,
  markQuestion,
  normalize,
  STOPWORDS,
  splitSentences,
  tokenize,
  unshout,
  withCorrections,
} from './text.js';
import { TOPIC_CUE } from './topic.js';

export interface Sentence {
  /** Cleaned sentence with absolute dates, still in the speaker's words. */
  core: string;
  /** Third-person rewrite of `core`. */
  text: string;
  question: boolean;
  filler: boolean;
  firstPerson: boolean;
  secondPerson: boolean;
  /** Informativeness; higher is better, <= 0 means nothing worth keeping. */
  score: number;
  /** Index of an earlier sentence this one continues ("It took me all week"), else -1. */
  attachedTo: number;
  /** Opens with an explicit change of subject ("By the way ...", "Anyway, ..."). */
  shift: boolean;
  /** An acknowledgement with at most a short echo of what was asked ("Got it, a tent for two."). */
  ack: boolean;
  /**
   * A labelled line of a note ("Deadline: 30 June 2025", the label part of what it says), with
   * the note's heading ("Notes for the move"); undefined for any other sentence.
   */
  note: { heading: string | undefined } | undefined;
  /** Part of a text an assistant drafts for the person to send (draft.ts): `text` is said as hers. */
  draft: boolean;
  /**
   * Part of a quoted text the person pastes to be edited (draft.ts opensPasted): whom she
   * wrote it to, null when it names no one; undefined for any other sentence.
   */
  recipient?: string | null;
  /**
   * Told after a question in the same sentence ("Can you plan a party for my son, he's turning
   * 6?"): the question before it is still the one the reply answers.
   */
  withAsk?: boolean;
}

export interface MessageView {
  msg: SegmentMessage;
  /** Capitalised words seen mid-sentence in the segment (names, places): never lower-cased. */
  proper: ReadonlySet<string>;
  speaker: string;
  addressee: string | null;
  /** Whether the addressee is an assistant: a person's imperative to it is a request, never advice. */
  toAssistant?: boolean;
  sentences: Sentence[];
}

/**
 * Display name per sender id: the first sender_name seen, else the id. A sender with no
 * name whose id is a handle or a role word ("u-42", "assistant") is called by its role
 * ("User", "Assistant"), so a fact reads "User is allergic to shellfish" and answers a
 * question about "the user", when it is the only such sender of its role in the segment
 * (two of them keep their ids apart).
 */
export function participantNames(segment: readonly SegmentMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of segment) {
    if (m.role === 'tool') continue;
    const known = names.get(m.sender_id);
    const name = m.sender_name?.trim();
    if (known === undefined || (known === m.sender_id && name)) names.set(m.sender_id, name || m.sender_id);
  }
  const taken = new Set(names.values());
  for (const [role, label] of ROLE_NAMES) {
    const handles = new Set(
      segment
        .filter((m) => m.role === role && names.get(m.sender_id) === m.sender_id && isHandle(m.sender_id))
        .map((m) => m.sender_id),
    );
    const [only] = handles;
    if (handles.size === 1 && only !== undefined && !taken.has(label)) names.set(only, label);
  }
  return names;
}

const INTERJECTION =
  '(?:hey|hi|hello|wow+|whoa|woah|actually|honestly|seriously|btw|by the way|guess what|you know|oh well|omg|oh|ah|aw+|yeah|yes|yep|yup|no|nope|well|ok|okay|omg|haha|lol|hmm+|um+|oops|cool|great|awesome|sure|right|absolutely|totally|congrats|congratulations|thanks|thank you|yay|ooh|good morning|good evening|dear|got it|noted|understood|alright|all right|of course|certainly|perfect|will do|sounds good|sorry|ugh+|argh+|meh|phew|yikes|oof|sigh|lmao)';

const FILLER =
  /^(?:thanks?(?: you)?(?: so much| a lot)?(?: for [^.!?]{1,40})?|thank you(?: for [^.!?]{1,40})?|(?:congrats|congratulations|well done|good job|nice work|best of luck)(?: (?:on|for|with) [^.!?]{1,40})?|good luck(?: with [^.!?]{1,40})?|talk (?:to you )?(?:soon|later)|see you(?: soon| later)?|bye|take care|(?:that|it|this)?\s*(?:sounds|looks|seems) (?:so |really |super )?\w+(?: \w+)?|(?:that's|that is|it's|it is|this is|how) (?:so |really |super )?(?:great|cool|awesome|amazing|nice|good|wonderful|lovely|fantastic|sweet|true|fun|exciting|impressive|incredible|beautiful|brave|kind)|i (?:totally |completely |100% |so |really |fully )?agree(?: with (?:you|that))?|(?:i )?love (?:that|this|your|the) (?:pic|photo|picture|one|idea|look|shot)|me too|same here|no problem|you're welcome|good to (?:see|hear from) you|how are you(?: doing)?|how have you been|how's it going|what's up|nice to meet you|glad to hear(?: that)?|so glad|love (?:that|it|this)|absolutely|definitely|exactly|of course|for sure|you got this|we got this|keep (?:it|up the good work)|anything new|what about you|you too|same|noted|got it|will do|understood|(?:i'll|i will|we'll|we will) (?:keep|bear) (?:that|this|it) in mind(?: for [^.!?]{1,40})?|(?:i have |i've got |got )?(?:a |one )?(?:(?:quick|small|short|simple|random|silly|general) )?question(?: for you)?(?: (?:about|on|regarding) [^.!?]{1,50})?)[.!?]*$/i;

/**
 * An assistant's closing courtesies, the whole sentence: "I hope this helps", "Let me know if
 * anything else comes up", "Feel free to ask ...", "Feel free to come back with ...", "Don't
 * hesitate to reach out ...", "If you try the lamp, let me know whether ...", "Happy to help".
 * They end most replies and tell nothing to remember.
 */
const CLOSING =
  /^(?:(?:i )?hope (?:this|that|these|it) (?:helps?|is helpful|was helpful)\b(?:,? (?:and|let me know|feel free|if)\b[^.!?]*)?|(?:please |do )?(?:let me know|feel free to (?:ask|reach out|let me know|get in touch|come back|follow up)|(?:don't|do not|never) hesitate to (?:ask|reach out|let me know|get in touch|come back|follow up))\b[^.!?]*|if you (?:have|need|want|would like|'d like|try)\b[^.!?]*\b(?:let me know|feel free|don't hesitate|do not hesitate|just ask)\b[^.!?]*|(?:i'm |i am )?(?:always )?(?:happy|glad) to help\b[^.!?]*)[.!?]*$/i;

/** An acknowledgement opening a reply, then at most a few words of echo and no clause of the speaker's own. */
const ACK =
  /^(?:got it|noted|understood|okay|ok|sure|alright|all right|perfect|certainly)\b[,.!]?\s*(.*?)[.!?]*$/i;

function isAcknowledgement(raw: string): boolean {
  const m = ACK.exec(raw.trim());
  if (!m) return false;
  const echo = m[1] ?? '';
  return (
    echo.split(/\s+/).filter(Boolean).length <= 5 &&
    !/\b(?:i|i'm|i've|i'll|i'd|we|we're|we've|my|our|me|us)\b/i.test(echo)
  );
}

const ANAPHORIC = /^(?:it|it's|this|that|that's|they|they're|these|those|which|there)\b/i;

/**
 * Words of the life domains people want remembered about themselves (family, pets, work,
 * study, home, health, milestones, plans, names): general English, no topic of any corpus.
 */
const SALIENT =
  /\b(?:famil\w*|kids?|children|husband|wife|partner|son|daughter|mom|dad|mother|father|sister|brother|friends?|dog|cat|pet|job|work\w*|career|school|college|university|class\w*|degree|moved?|live[sd]?|home|trip|travel\w*|visit\w*|bought|event|group|project|plan\w*|goal|birthday|wedding|married|started|joined|finished|won|lost|doctor|health|allerg\w*|diet|name[ds]?|name's|called|\d+)\b/i;

/** Praise and reactions ("that trip sounds great"): opinions about the talk, not facts. */
const EVALUATIVE =
  /\b(?:is|are|was|were|sounds|looks|seems|feels)\s+(?:so\s+|really\s+|super\s+|such\s+|very\s+|pretty\s+)?(?:an?\s+)?(?:great|amazing|awesome|cool|fun|nice|good|lovely|wonderful|beautiful|kind|sweet|brave|inspiring|important|special|interesting|incredible|fantastic|impressive|lucky)\b/i;

/** Exhortations ("Keep going", "Let's celebrate"): no fact in them. */
const IMPERATIVE =
  /^(?:let's|lets|keep|cherish|enjoy|remember|stay|don't|take|have|check|look|go|try|hang|wish|imagine|trust|believe|never|always)\b/i;

interface NamePatterns {
  lead: RegExp;
  inner: RegExp | null;
  trailing: RegExp | null;
}

const namePatternCache = new Map<string, NamePatterns>();

/** Compiled interjection/vocative patterns for a set of name forms, cached. */
function namePatterns(names: readonly string[]): NamePatterns {
  const key = names.join('\u0000');
  const hit = namePatternCache.get(key);
  if (hit) return hit;
  const alt = names.map(escapeRegExp).join('|');
  const nameAlt = names.length ? `|${alt}` : '';
  const made: NamePatterns = {
    lead: new RegExp(
      `^(?:${INTERJECTION}(?:\\s+(?:there|so much|a lot|guys${nameAlt}))?${nameAlt})\\s*[,!.:;–—-]+\\s*`,
      'i',
    ),
    inner: names.length ? new RegExp(`,\\s*(?:${alt})\\s*,`, 'gi') : null,
    trailing: names.length ? new RegExp(`,\\s*(?:${alt})\\s*([.!?]*)$`, 'i') : null,
  };
  if (namePatternCache.size > 200) namePatternCache.clear();
  namePatternCache.set(key, made);
  return made;
}

/**
 * A frame announcing what follows ("I should mention I'm allergic to shellfish", "just so you
 * know, my sister is visiting", "honestly I've been tired", "not sure if this matters, but my
 * wife is pregnant"): how it is said, not what. Taken off only before a clause of its own (a
 * pronoun or an article opening it), so "I wanted to ask about the lease renewal" stays.
 */
const FRAME =
  /^(?:i(?: |'ve |'d )(?:should|must|have to|need to|want to|wanted to|just wanted to|forgot to|meant to|(?:have )?been meaning to|thought i'd|figured i'd|like to) (?:also |probably |quickly |just |first )?(?:mention|tell you|say|add|let you know|point out|note|ask(?: you)?)|just so you know|for (?:the record|context|reference|what it's worth)|(?:a )?(?:quick )?heads[- ]up|fun fact|keep in mind|(?:please )?(?:remember|note|don't forget)|as i (?:said|mentioned)(?: (?:before|earlier))?|honestly|actually|seriously|frankly|basically|truthfully|to be (?:honest|fair)|tbh|in fact|the (?:thing|problem|issue|catch) is|(?:idk|i don't know|(?:i'm )?not sure|no idea) (?:if|whether) (?:(?:this|it|that)(?:'s| is| was)? )?(?:matters|relevant|important|useful|helps)(?:,?\s+but)?)(?: that)?[,:]?\s+(?=(?:i|i'm|i've|i'd|i'll|my|we|we're|we've|our|the|a|an|he|she|they|it's|there's)\b)/i;

/**
 * Verbs of advice that bid only with an object after them ("Keep a diary", "Ice your knees",
 * "Ask other hikers"): the speaker advised (facts.ts ADVICE), where the other bidding verbs
 * ask.
 */
export const ADVICE_VERBS =
  'use|add|keep|start|stop|take|ice|eat|drink|choose|pick|rest|stretch|stay|limit|focus|practi[cs]e|water|schedule|join|follow|get|ask|leave|pack|prepare|build|serve|include|replace|clean|wash|cook|bake|store|cover|mix|reduce|increase|visit|contact|save|cancel|remove|wipe|rotate|wear|hold|breathe|turn|place|put|set|read|walk|sleep|warm|cool|aim|talk|slow|provide|spend|move|have|encourage|introduce|swap|feed|play|watch|separate|test|label|speak|pair|thank|sit|let|download|drop|head|continue|enable|type|press|offer|wait|look|listen|apply|fill|pour|repeat|lift|season|chop|stir|boil|roast|fry|soak|plant|prune|trim|unplug|plug|unscrew|reassemble|measure|compare|skip|learn|review|write down|note|pay|split|treat|reward|praise|protect|prevent|support|allow|block|mute|update|install|restart|back up|log|track|record|share|print|sign|lock|unlock|charge|fold|roll|hang|stand|simmer|whisk|grill|steam|heat|preheat|slice|dice|mince|grate|drain|rinse|peel|marinate|knead|sprinkle|garnish|finish|relax|loosen|tighten|adjust|raise|lower|open|close|attach|extend|shield|squeeze|bend|approach|email|post|invite|reach out|mention|highlight|host|launch|promote|advertise|target|hire|delegate|outsource|automate|negotiate|research|explore|attend';

/**
 * Verbs of advice seldom a noun opening a sentence: they bid whatever follows ("Remove rings
 * and bracelets", "Keep nails short"), where the others need an object's first word after them.
 */
const SELDOM_NOUNS =
  'use|remove|keep|wear|include|choose|replace|reduce|prepare|follow|wipe|breathe|encourage|introduce|download|apply|pour|unplug|unscrew|reassemble|preheat|marinate|sprinkle|loosen|tighten|adjust|attach|delegate|outsource|automate|negotiate|stretch|schedule|rinse|drain|squeeze|whisk|simmer|knead';

/**
 * A short phrase that may open an imperative, with its comma ("For longer trips, ask a
 * friend to water", "In C4, type ...").
 */
export const BIDDING_LEAD =
  '(?:for|in|on|at|after|before|during|if|when|once|first|next|then|finally)\\b[^,;:.!?]{0,40},\\s+';

/** Words an imperative's object or particle opens with ("Keep *a* diary", "Check *out* ..."). */
export const OBJECT_WORDS =
  'me|us|a|an|the|some|this|that|these|those|it|them|him|her|my|your|our|other|others|to|out|up|on|for|with|about|more|at|in|into|off|down|back|over|each|every|all|any|plenty|lots|both|one|two|three|four|five|six|seven|eight|nine|ten|several|many|few|half|extra|enough|yourself|what|whatever|\\d+';
/** OBJECT_WORDS or a gerund ("Try *running*"). */
const OBJECT_START = `${OBJECT_WORDS}|\\w+ing`;

/**
 * A sentence opening with a verb in the imperative ("Write me ...", "Try quad stretches",
 * "Check out this pic"). A verb that is seldom a noun opening a sentence bids whatever
 * follows; any other must be followed by a word that starts an object or a particle, so
 * "Book club was fun" and "Plan B worked" stay statements.
 */
export const BIDDING = new RegExp(
  `^(?:${BIDDING_LEAD})?(please\\s+)?(?:(?:don't|do not|never)\\s+(?!(?:know|think|feel|remember|have|care|want|need|like|get|mind|see|understand|believe|agree|blame|recall|expect|wanna)\\b)[a-z]+\\s+\\S|(?<=please\\s+)(?:(?:never|always|just|not)\\s+)?[a-z]+\\s+\\S|(try|avoid|consider|write|explain|summari[sz]e|translate|describe|generate|draft|rewrite|recommend|suggest|tell|give|show|remind|calculate|compare|${SELDOM_NOUNS})\\s+\\S|(make|create|help|fix|find|send|book|call|bring|buy|plan|list|check|do|${ADVICE_VERBS})\\s+(?:${OBJECT_START})\\b)`,
  'i',
);

/** A template's blank left for the person ("[Your Name]", "[Company]"). */
const PLACEHOLDER = /^\[[^\]]{1,40}\]$/;

/**
 * A label that says how the rest is meant, not what it is about ("Quick context:", "FYI:",
 * "Quick one:", "Here's the situation:", "Change of plans:").
 */
const TALK_LABEL =
  /^(?:(?:(?:quick|brief|short|small|side|some|just an?|an?|one more|final|important)\s+)?(?:context|note|notes|update|reminder|background|fyi|ps|p\.s\.|btw|edit|tl;?dr|heads[- ]up|info|summary|recap|question|q|thought|idea|warning|correction|aside)|(?:quick|random|silly|small|another|last|one more|easy)\s+one|(?:(?:a|slight|small|big|quick|last[- ]minute)\s+)?change of plans?|plot twist|here(?:'s| is) (?:the|my) (?:situation|thing|deal|story|problem|background|context))(?:\s*:|\s+[-\u2013\u2014]+)\s+(?=\S)/i;
/** "Update on ...:", "News about ...:" and what the news is about ("Update on the job hunt: ..."). */
const UPDATE_ON =
  /^(?:(?:quick|small|big|an?|some|latest|another)\s+)?(?:update|news)\s+(?:on|about|re|regarding)\s+([^:.!?,]{1,40}):\s+(?=\S)/i;
/** "Random q but ...", "Unrelated, but ...", "Quick question - ...": an aside's announcement. */
const ASIDE =
  /^(?:(?:totally|completely|kinda|slightly)\s+)?(?:random|quick|unrelated|off[- ]topic)(?:\s+(?:q|question|thing))?\s*(?:[,:]\s*(?:but\s+)?|\s+but\s+|\s+-+\s+)(?=\S)/i;
/**
 * "Here it is:", "Here's my draft:", "Here is a friendlier version:" (draft.ts TEXT_LEAD), the
 * quotation mark opening the text, and a letter's salutation opening the same sentence ("Dear
 * ...,", or "Hi <Name>," after such an announcement or a quotation mark).
 */
const GREETING_NAME = String.raw`(?:hi|hello|hey) (?:(?:mr|mrs|ms|dr|prof)\.? )?\p{Lu}[\p{L}'-]*(?: \p{Lu}[\p{L}'-]*){0,2},\s+`;
const PASTED = new RegExp(
  `^(?:(?:${TEXT_LEAD.source})?["“]?(?:dear [\\p{L} .'-]{1,40},\\s+)|(?:${TEXT_LEAD.source})["“]?(?:${GREETING_NAME})?|["“]${GREETING_NAME})(?=\\S)`,
  'iu',
);

/** "Asking for my neighbour Ruth, her cat ...": the frame and the pronoun that stands for its person. */
const ASKING_FOR =
  /^asking for ((?:my|our|a) [^,:;.!?]{1,40}?)\s*[,:;-]\s+(her|his|their|she|he|they)\s+(?=\S)/i;

/** "Good news, ...", "Big news: ...": how the speaker takes what follows. */
const NEWS =
  /^(?:some\s+)?(?:good|great|big|exciting|happy|sad|bad|wonderful|amazing|fantastic|terrible|awful)\s+news\s*(?:[,:]|\s[-–—])\s*(?=\S)/i;
/** A labelled line of a note: a short label (at most four words), a colon, a value. */
const FIELD = /^\p{Lu}[\p{L}\p{N}'’&/-]*(?: [\p{L}\p{N}'’&/-]+){0,3}:\s+\S/u;

/** Strips leading interjections ("Wow, Tomas!"), vocatives and a trailing laugh from a sentence. */
export function stripInterjections(sentence: string, names: readonly string[]): string {
  const p = namePatterns(names);
  let s = sentence.trim();
  for (let k = 0; k < 4; k++) {
    const next = s
      .replace(p.lead, '')
      // A leading label of the talk itself: "Quick context: ...", "FYI: ...", "Update: ..."
      // (a note's "Deadline: 30 June" keeps its label: FIELD).
      .replace(TALK_LABEL, '')
      // "Update on the job hunt: I got an offer": what it is about stays ("About the job hunt, ...").
      .replace(UPDATE_ON, (_m, topic: string) => `About ${topic}, `)
      .replace(ASIDE, '')
      // "One more thing, ...", "Another thing: ...": the next point announced.
      .replace(/^(?:one\s+(?:more|last)|another|last|other)\s+thing\s*[,:]\s+(?=\S)/i, '')
      // "Good news, I got the job": how the news is taken, not what it is.
      .replace(NEWS, '')
      // "Here it is: Dear Hiring Manager, I am writing ...": what announces a pasted text and
      // the text's salutation.
      .replace(PASTED, '')
      // "Asking for my neighbour Ruth, her cat is fifteen": the one asked for is whom it is about.
      .replace(ASKING_FOR, (_m, who: string, pronoun: string) =>
        /^(?:she|he|they)$/i.test(pronoun) ? `${who} ` : `${who}'s `,
      )
      .replace(
        /^(?:and|but|(?:ok|okay)\s+so|so(?!\s+(?:far|much|many|long|little|few)\b)|plus|also|anyway|well|oh|still|by the way|btw|fyi)\b,?\s+(?=\S)/i,
        '',
      )
      .replace(FRAME, '');
    if (next === s) break;
    s = next;
  }
  if (p.inner) s = s.replace(p.inner, ',');
  if (p.trailing) s = s.replace(p.trailing, '$1');
  // A trailing laugh ("... this morning lol.", "haha!", "hahahaha") is tone, not content, and
  // so is a trailing "by the way" ("I'm Sofia, by the way.").
  s = s.replace(/(?:[\s,]+(?:lol|lmao|rofl|h*a*(?:ha){2,}[ah]*|h*e*(?:he){2,}[eh]*|xd))+\s*([.!?]*)$/i, '$1');
  s = s.replace(/,?\s+(?:by the way|btw)\s*([.!?]*)$/i, '$1');
  s = s.replace(/,\s+(?:by the way|btw),\s+/gi, ', ');
  // "... penicillin btw, just in case it matters for the clinic": the aside and the hedge after
  // it ("in case it matters / it's relevant / it's important / it helps") say nothing.
  s = s.replace(/\s+(?:by the way|btw)(?=,)/gi, '');
  s = s.replace(
    /,?\s+(?:just )?in case (?:it|that|this)(?:'s| is)? (?:matters|relevant|important|helps|useful)\b[^.!?]*([.!?]*)$/i,
    '$1',
  );
  return s.trim();
}

/**
 * A statement without the request to the listener that trails it ("I'm vegetarian, so
 * please never suggest meat dishes" -> "I'm vegetarian"): what is worth remembering
 * about a person, not what they asked for in the moment.
 */
export function withoutRequest(core: string): string {
  const cut = core
    // Not an embedded question: "how would you improve the app" asks nothing of the listener.
    .replace(
      /(?<!\b(?:how|what|which|where|when|why|who|whom|whose|whether|if)(?:\s+[\w'-]+){0,2})(?:,?\s+(?:(?:so|and|but)\s+)?(?:please|pls|could you|can you|would you)\b.*$)/i,
      '',
    )
    // "..., so no cheese please": a ban on what to offer, the request's short form.
    .replace(/,\s+so\s+no\s+[^,;.!?]{1,40}?\s*(?:,?\s*please)?\s*([.!]?)$/i, '$1')
    // "..., so keep that in mind", "..., so don't suggest ...": the same request as an imperative.
    .replace(
      /,\s+so\s+(?:(?:keep|bear)\s+(?:that|this|it)\s+in\s+mind|(?:don't|do not|never)\s+(?:suggest|recommend|offer|include)|avoid\s+(?:suggesting|recommending))\b.*$/i,
      '',
    );
  return cut !== core && cut.split(/\s+/).length >= 2 ? cut.trim() : core;
}

/** Names and nicknames ("Tom" for Tomas) of the participants mentioned in a text. */
function mentioned(text: string, names: readonly string[]): string[] {
  const found: string[] = [];
  for (const w of text.match(/\b[A-Z][a-z]{2,}\b/g) ?? []) {
    const nickname = w.length >= 3 && !STOPWORDS.has(w.toLowerCase());
    for (const n of names) {
      if ((n === w || (nickname && n.startsWith(w))) && !found.includes(n)) found.push(n);
    }
  }
  return found;
}

/** Vocative and nickname forms to strip: each name and the short forms used for it. */
function nameForms(text: string, names: readonly string[]): string[] {
  const forms = new Set(names);
  for (const w of text.match(/\b[A-Z][a-z]{2,}\b/g) ?? []) {
    if (!STOPWORDS.has(w.toLowerCase()) && names.some((n) => n.startsWith(w))) forms.add(w);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Scores a rewritten sentence: content words, self-disclosure, dates, names, topics. */
function scoreSentence(s: Omit<Sentence, 'score' | 'attachedTo'>, names: readonly string[]): number {
  if (s.filler) return 0;
  const tokens = tokenize(s.core);
  const content = tokens.filter(isContentWord).length;
  let score = Math.min(content, 10);
  if (s.firstPerson) score += 3;
  if (mentionsDate(s.core) || /\d/.test(s.core)) score += 2;
  const proper = (s.core.match(/(?<=\S\s+)[A-Z][A-Za-z+-]+/g) ?? []).filter((w) => !names.includes(w));
  score += Math.min(proper.length, 2) * 1.5;
  if (SALIENT.test(s.core)) score += 2;
  if (s.question) score -= 4;
  if (s.secondPerson && !s.firstPerson) score -= 3;
  if (!s.firstPerson && EVALUATIVE.test(s.core)) score -= content <= 3 ? 3 : 1;
  if (!s.firstPerson && /\b(?:my|our)\b/i.test(s.core)) score += 2;
  if (IMPERATIVE.test(s.core)) score -= 3;
  if (/^(?:it's|that's|this is|it is|that is|what a|so)\b/i.test(s.core)) score -= 2;
  if (content === 0) score -= 4;
  else if (content === 1) score -= 1;
  return score;
}

/** Splits and scores every message of a segment. Tool messages get no sentences. */
export function analyze(segment: readonly SegmentMessage[], names: Map<string, string>): MessageView[] {
  const all = [...new Set(names.values())];
  const proper = properNouns(segment, all);
  const assistants = new Set(
    segment.filter((m) => m.role === 'assistant').map((m) => names.get(m.sender_id)),
  );
  return segment.map((msg, i) => {
    const speaker = names.get(msg.sender_id) ?? msg.sender_name ?? msg.sender_id;
    if (msg.role === 'tool') return { msg, proper, speaker: 'tool', addressee: null, sentences: [] };
    const others = all.filter((n) => n !== speaker);
    const addressee = findAddressee(segment, i, msg.content, others, names);
    const forms = nameForms(msg.content, all);
    const sentences: Sentence[] = [];
    const labelled: boolean[] = [];
    let before: string | undefined;
    let draft: Draft | null = null;
    // A person's own words: her lists, her chat spelling, her notes about herself, her pasted texts.
    const hers = msg.role === 'user';
    // A quoted text of hers she asks to have edited: its "I" is hers, its "you" its recipient's.
    const editing = hers && asksToEdit(msg.content);
    const writtenTo = editing ? requestedRecipient(msg.content, speaker) : null;
    let pasted: Draft | null = null;
    const told = new Set<string>();
    // Whether the person just asked for a text to send: read only for a reply that opens
    // with a greeting (draft.ts opensDraft).
    const requested = () => {
      for (let j = i - 1; j >= 0; j--)
        if (segment[j]!.role === 'user') return asksForDraft(segment[j]!.content);
      return false;
    };
    const written = normalize(prose(msg.content, hers));
    for (const raw of withCorrections(splitSentences(hers ? chatSpelling(written) : written))
      .map((t) => markQuestion(unshout(t)))
      .map((t) => (hers ? selfInFirstPerson(t, speaker) : t))
      .map(ownedRole)
      .flatMap(keptForHer)
      .flatMap(splitRole)
      .flatMap(splitPlease)
      .flatMap((t) => (editing ? splitQuoted(t) : [t]))
      .flatMap((t) => splitAsk(t, told))) {
      const plain = capitalize(
        withYears(resolveRelativeDates(stripInterjections(raw, forms), msg.timestamp), msg.timestamp),
      );
      const core = heOrShe(before, plain);
      before = plain;
      if (msg.role === 'assistant' && addressee)
        draft = draft
          ? recipient(core, draft)
          : opensDraft(raw, addressee, sentences.length === 0, requested);
      if (editing) pasted = pasted ? recipient(core, pasted) : opensPasted(raw, writtenTo);
      const question = /\?["')]*$/.test(core);
      const shift = TOPIC_CUE.test(raw.trim());
      const filler =
        core.length === 0 ||
        FILLER.test(core) ||
        !/[A-Za-z]{2}/.test(core) ||
        PLACEHOLDER.test(core) ||
        (msg.role === 'assistant' && CLOSING.test(core)) ||
        // her pasted text's sign-off ("Thanks, Lena")
        (pasted !== null && closesDraft(core));
      // A statement's fact leaves out the request trailing it ("I'm allergic to shellfish, so
      // please don't suggest seafood" -> "... allergic to shellfish"), as its profile item does.
      // In a draft the person speaks, to its recipient (draft.ts).
      const rw = draft
        ? toThirdPerson(question ? core : withoutRequest(core), addressee as string, draft.to)
        : pasted
          ? toThirdPerson(unquoted(question ? core : withoutRequest(core)), speaker, pasted.to)
          : toThirdPerson(question ? core : withoutRequest(core), speaker, addressee);
      const drafted = draft !== null;
      const inPasted = pasted ? { recipient: pasted.to } : {};
      if (draft && (closesDraft(core) || (draft.quoted && closesQuote(raw)))) draft = null;
      if (pasted && (closesDraft(core) || closesQuote(raw))) pasted = null;
      const partial = {
        core,
        text: rw.text,
        question,
        filler,
        firstPerson: rw.firstPerson,
        secondPerson: rw.secondPerson,
        shift,
        ack: isAcknowledgement(raw),
        note: undefined,
        draft: drafted,
        ...inPasted,
        ...(told.has(raw) ? { withAsk: true } : {}),
      };
      labelled.push(!question && FIELD.test(core));
      const prev = sentences[sentences.length - 1];
      const words = core.split(/\s+/).length;
      const attachedTo =
        prev &&
        !prev.question &&
        !prev.filler &&
        prev.score >= 3 &&
        !question &&
        !shift &&
        ANAPHORIC.test(core) &&
        words <= 14
          ? sentences.length - 1
          : -1;
      sentences.push({ ...partial, score: scoreSentence(partial, all), attachedTo });
    }
    markNote(sentences, labelled);
    const toAssistant = msg.role === 'user' && addressee !== null && assistants.has(addressee);
    return { msg, proper, speaker, addressee, ...(toAssistant ? { toAssistant } : {}), sentences };
  });
}

/** Labelled lines a note gives as facts beyond a message's cap (a note of a dozen fields). */
const MAX_FIELDS = 12;

/**
 * Marks the labelled lines of a note with a value worth keeping, first to last, with the
 * heading they stand under (the nearest sentence before them ending in ":", past other
 * labelled lines): in a message with such a heading or two of them at least. A lone "Funny
 * thing: he forgot his keys" in a chat is said like any sentence.
 */
function markNote(sentences: Sentence[], labelled: readonly boolean[]): void {
  const heading = (idx: number): string | undefined => {
    for (let i = idx - 1; i >= 0; i--) {
      if (labelled[i]) continue;
      const s = sentences[i]!;
      return /:\s*$/.test(s.core) ? capitalize(s.text.replace(/[:\s]+$/, '')) : undefined;
    }
    return undefined;
  };
  const lines = sentences
    .flatMap((s, i) =>
      labelled[i] && !s.filler && contentStems(s.core.slice(s.core.indexOf(':') + 1)).length > 0 ? [i] : [],
    )
    .slice(0, MAX_FIELDS);
  const first = lines[0];
  if (first === undefined || (lines.length < 2 && !heading(first))) return;
  for (const i of lines) sentences[i]!.note = { heading: heading(i) };
}

/**
 * Words written capitalised after a lower-case word somewhere in the segment, plus names,
 * plus the other of a pair with the speaker opening a sentence ("Ines and I are moving").
 */
function properNouns(segment: readonly SegmentMessage[], names: readonly string[]): Set<string> {
  const out = new Set<string>(names.flatMap((n) => n.split(/\s+/)));
  for (const m of segment) {
    if (m.role === 'tool') continue;
    for (const hit of m.content.matchAll(/[a-z,]\s+([A-Z][A-Za-z]*)/g))
      if (hit[1] && hit[1] !== 'I') out.add(hit[1]);
    for (const hit of m.content.matchAll(/(?:^|[.!?]\s+)([A-Z][a-z]+) and (?:I|me)\b/g))
      if (hit[1] && !NOT_A_NAME.has(hit[1].toLowerCase())) out.add(hit[1]);
  }
  return out;
}

/** Capitalised openers of "X and I" that are no one's name. */
const NOT_A_NAME = new Set(
  'my your his her our their the a an this that these those both you he she we they it someone everyone'.split(
    ' ',
  ),
);

/** Whom a message speaks to: a named participant, else the previous (or next) other speaker. */
function findAddressee(
  segment: readonly SegmentMessage[],
  index: number,
  content: string,
  others: readonly string[],
  names: Map<string, string>,
): string | null {
  const named = mentioned(content, others);
  if (named.length === 1) return named[0] ?? null;
  const self = segment[index]?.sender_id;
  const pick = (m: SegmentMessage | undefined): string | null =>
    m && m.role !== 'tool' && m.sender_id !== self ? (names.get(m.sender_id) ?? null) : null;
  for (let j = index - 1; j >= 0; j--) {
    const p = pick(segment[j]);
    if (p) return p;
  }
  for (let j = index + 1; j < segment.length; j++) {
    const p = pick(segment[j]);
    if (p) return p;
  }
  return others.length === 1 ? (others[0] ?? null) : null;
}

/**
 * Message text as prose to rewrite and score: fenced code blocks become "(code)", and the
 * Markdown an assistant writes is read as plain text. Headings, horizontal rules and table
 * rules are dropped (a heading is no statement: "Tips for packing" would become "Assistant
 * said that tips for packing"); list and quote markers, emphasis, inline code and links
 * keep their words only, so a fact never reads "Assistant said that - **Pack** ...".
 */
export function prose(content: string, joinLists = false): string {
  const lines = content.replace(/```[\s\S]*?(?:```|$)/g, '\n(code)\n').split('\n');
  return (joinLists ? joinShortLists(lines) : lines).map(plainLine).join('\n');
}

const LIST_ITEM = /^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+(\S.*)$/;
/** Words at most in a heading or an item of a list joined into one statement. */
const SHORT_LIST_WORDS = 8;

/**
 * A person's short list under its heading ("My symptoms so far:", "- headache since Monday",
 * "- mild fever") as one line, "My symptoms so far: headache since Monday, mild fever.": each
 * item alone says nothing of whom or what it is. Only when the heading ends with a colon and
 * every item is short, no sentence of its own and no labelled line.
 */
function joinShortLists(lines: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const heading = lines[i]!.trim();
    const items: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const m = LIST_ITEM.exec(lines[j]!);
      if (!m) break;
      items.push(m[1]!.trim().replace(/[.;,]+$/, ''));
    }
    const short = (t: string) => t.split(/\s+/).length <= SHORT_LIST_WORDS;
    if (
      heading.endsWith(':') &&
      !LIST_ITEM.test(heading) &&
      short(heading) &&
      items.length >= 2 &&
      // A note's labelled lines ("- Deadline: 30 June") stay lines of their own (markNote).
      items.every((t) => short(t) && !/[.!?]\s/.test(t) && !/:\s/.test(t))
    ) {
      out.push(`${heading} ${items.join(', ')}.`);
      i = j - 1;
    } else out.push(lines[i]!);
  }
  return out;
}

function plainLine(line: string): string {
  if (/^\s{0,3}#{1,6}(\s|$)/.test(line) || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return '';
  if (/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line)) return '';
  return line
    .replace(/^\s*(?:>\s*)+/, '')
    .replace(/^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s+/, '')
    .replace(/!?\[([^\]\n]*)\]\([^)\s]*\)/g, '$1')
    .replace(/(\*\*|__)(?=\S)([^\n]*?\S)\1/g, '$2')
    .replace(/(^|[\s("'])([*_])(?=[^\s*_])([^*_\n]*?[^\s*_])\2(?=$|[\s).,;:!?"'])/g, '$1$3')
    .replace(/`([^`\n]+)`/g, '$1');
}
