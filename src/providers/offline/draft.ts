/**
 * A text an assistant writes for the person to send (a letter, an email, a message): from
 * its subject line or salutation ("Subject: Boiler repair", "Dear Ms. Okonkwo,", "Hi
 * Priya,") to its sign-off ("Best regards,", "Sincerely,") or the message's end. Its "I" is
 * the person's and its "you" the recipient's, not the assistant's and the person's: "I work
 * from home on Tuesdays" in a drafted email says something of the person.
 */
export interface Draft {
  /** Whom the text is written to ("Ms. Okonkwo", "Hiring Manager"), once its salutation names them. */
  to: string | null;
  /** Opened by a quotation mark ('Here is a friendlier version: "Hi Gareth, ...'): the closing one ends it. */
  quoted: boolean;
}

/**
 * What announces a text before it ("Here is a friendlier version:", "Here's the draft:"), and
 * the quotation mark opening it: read past, to find the text's salutation.
 */
export const TEXT_LEAD =
  /^(?:here(?:'s| is) (?:it|(?:my|the|a|an|your) (?:\w+ )?(?:draft|letter|e-?mail|text|version|message|note|reply|cover letter))|here it is)\s*:\s*/i;

/** A sentence past what announces a text (TEXT_LEAD), and whether a quotation mark opens the text. */
function opening(sentence: string): { text: string; quoted: boolean } {
  const text = sentence.trim().replace(TEXT_LEAD, '');
  const quoted = /^["“]/.test(text);
  return { text: quoted ? text.slice(1) : text, quoted };
}

/** True when `sentence` ends a quoted draft: it ends with a closing quotation mark. */
export const closesQuote = (sentence: string) => /["”]\s*$/.test(sentence.trim());

const SUBJECT = /^Subject:\s+\S/;
/** "Dear ...,", or "Hi / Hello / Hey <Name>,"; whom it names in group 1 (after "Dear") or 2. */
const SALUTATION =
  /^(?:[Dd]ear\s+([^,:\n]{1,40}?)|(?:Hi|Hello|Hey|Greetings)\s+((?:(?:Mr|Mrs|Ms|Dr|Prof)\.?\s+)?[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}))\s*[,:]/;
/** Whom a salutation opening `text` names ("Ms. Okonkwo", "Mr Adeyemi"), or undefined. */
function salutee(text: string): string | undefined {
  const m = SALUTATION.exec(text);
  return (m?.[1] ?? m?.[2])?.trim();
}
const SIGN_OFF =
  /^(?:(?:best|kind|warm|warmest)(?:\s+(?:regards|wishes))?|regards|sincerely(?:\s+yours)?|yours(?:\s+(?:truly|sincerely|faithfully))?|thanks|many thanks|thank you|cheers|all the best|warmly|respectfully)\s*,?\s*(?:\p{Lu}[\p{L}'-]*(?:\s+\p{Lu}[\p{L}'-]*)?)?\s*["”]?\s*$/iu;

/** A request for such a text: "Can you write an email to my landlord?", "Draft a thank-you note". */
const REQUEST =
  /\b(?:write|draft|compose|prepare|put together)\b[^.?!]*?\b(?:e-?mail|letter|note|message|text|reply|response|card|invitation|invite|post|toast|speech|announcement)s?\b/i;

/** True when a person's message asks for a text to send. */
export const asksForDraft = (content: string) => REQUEST.test(content);

/**
 * A request to edit a text of the person's own that she pastes: "Can you make this email to my
 * landlord more polite?", "Please proofread my message to the neighbour:".
 */
const EDIT_REQUEST =
  /\b(?:make|edit|proofread|rewrite|reword|rephrase|improve|polish|fix|check|shorten|soften|tidy|correct)\b[^.?!]*?\b(?:this|my|the following)\s+(?:\w+\s+)?(?:e-?mail|letter|note|message|text|reply|response|post|paragraph|draft)s?\b/i;

/** True when a person's message asks to edit a text of hers she pastes (EDIT_REQUEST). */
export const asksToEdit = (content: string) => EDIT_REQUEST.test(content);

/** Whom the request says the text is to: "this email to my landlord", "my message to the neighbour". */
const WRITTEN_TO =
  /\b(?:e-?mail|letter|note|message|text|reply|response|post)s?\s+to\s+(?:(my|our)\s+([a-z]+)|(the\s+[a-z]+)|([A-Z][a-z]+))\b/;

/**
 * The recipient an edit request names, as a rewrite names them ("User's landlord", "the
 * neighbour", "Marta"), or null.
 */
export function requestedRecipient(content: string, speaker: string): string | null {
  const m = WRITTEN_TO.exec(content);
  if (!m) return null;
  return m[2] ? `${speaker}'s ${m[2]}` : (m[3] ?? m[4] ?? null);
}

/**
 * A message that pastes a quoted text, cut where the quotation opens after a colon ('... to
 * the neighbour: "Your dog ...') and where it closes before the next sentence ('... Lena" I am
 * too angry ...'), so the text's sentences stand apart from hers around it.
 */
export const splitQuoted = (sentence: string): string[] =>
  sentence.split(/(?<=:)\s+(?=["“])|(?<=\S["”])\s+(?=\p{Lu})/u).filter((part) => part.trim().length > 0);

/**
 * The text a sentence of a person's message opens by a quotation mark, when her message asks
 * to edit it (asksToEdit): written by her to whom its salutation names ("Hi Mr Adeyemi, ..."),
 * else to whom her request names (`requested`: requestedRecipient), else to someone unnamed
 * (null); null when the sentence opens no quotation.
 */
export function opensPasted(sentence: string, requested: string | null = null): Draft | null {
  const text = sentence.trim();
  if (!/^["“]/.test(text)) return null;
  return { to: salutee(text.slice(1)) ?? requested, quoted: true };
}

/** A sentence of a quoted text without its quotation marks. */
export const unquoted = (sentence: string) => sentence.replace(/^["“]\s*/, '').replace(/["”]\s*$/, '');

/**
 * The draft a sentence of an assistant's message opens (as written: its salutation may share
 * the line with the text's first words, "Dear Hiring Manager, I am applying ..."), given whom
 * the message speaks to; null when it opens none. An assistant may greet the person herself by a name it knows and
 * the segment does not ("Hi Alice, here is what I found"): a "Hi" or "Hello" opening the
 * message is a greeting, unless the person just asked for a text to send (`requested`);
 * "Dear" and a subject line open one anywhere.
 */
export function opensDraft(
  sentence: string,
  person: string,
  first: boolean,
  requested: () => boolean,
): Draft | null {
  const { text, quoted } = opening(sentence);
  if (SUBJECT.test(text)) return { to: null, quoted };
  const m = SALUTATION.exec(text);
  const to = (m?.[1] ?? m?.[2])?.trim();
  // A "Hi" after "Here is a ... version:" opens the text announced, not the reply.
  const announced = text !== sentence.trim();
  if (!m || !to || (first && !m[1] && !announced && !requested())) return null;
  // "Dear me, that sounds stressful" and "Hi there," address no one else.
  if (
    to.toLowerCase() === person.toLowerCase() ||
    /^(?:there|all|everyone|me|you|god|lord|friend)$/i.test(to)
  )
    return null;
  return { to, quoted };
}

/** The recipient a salutation within an open draft names ("Dear Ms. Okonkwo," after the subject line). */
export function recipient(sentence: string, draft: Draft): Draft {
  if (draft.to) return draft;
  return { to: salutee(sentence) ?? null, quoted: draft.quoted };
}

/** True for the sign-off that closes a draft ("Best regards,"). */
export const closesDraft = (sentence: string) => SIGN_OFF.test(sentence);
