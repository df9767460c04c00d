/**
 * Tolerant JSON extraction from model replies. Models wrap JSON in prose or code fences,
 * prefix it with `<think>` blocks, leave trailing commas, or put raw newlines inside
 * strings; this recovers the JSON value in all of those cases and fails loudly otherwise.
 */

/** Candidates scanned in prose before giving up (keeps the worst case linear-ish). */
const MAX_CANDIDATES = 64;

export class JsonExtractionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonExtractionError';
  }
}

/**
 * The JSON value in a model reply. Tries, in order: the whole reply; each fenced code
 * block; then every balanced top-level `{...}` / `[...]` in the text (string- and
 * escape-aware), preferring the first object over arrays since every caller asks for an
 * object. Each candidate is parsed as-is, then after a cheap repair (trailing commas
 * dropped, raw control characters inside strings escaped). Throws JsonExtractionError
 * when nothing parses.
 */
export function extractJson(text: string): unknown {
  const cleaned = text
    .replace(/^\uFEFF/, '')
    .replace(/<think>[\s\S]*?<\/think>/gi, '')
    .trim();
  if (!cleaned) throw new JsonExtractionError('empty reply: no JSON found');

  const whole = tryParse(cleaned);
  if (whole.ok) return whole.value;

  for (const m of cleaned.matchAll(/```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/g)) {
    const inner = (m[1] ?? '').trim();
    if (!inner) continue;
    const fenced = tryParse(inner);
    if (fenced.ok) return fenced.value;
  }

  let firstArray: { value: unknown } | undefined;
  let tried = 0;
  let i = 0;
  while (i < cleaned.length && tried < MAX_CANDIDATES) {
    const ch = cleaned[i];
    if (ch !== '{' && ch !== '[') {
      i++;
      continue;
    }
    tried++;
    const end = balancedEnd(cleaned, i);
    if (end < 0) {
      i++;
      continue;
    }
    const parsed = tryParse(cleaned.slice(i, end + 1));
    if (parsed.ok) {
      if (ch === '{') return parsed.value;
      firstArray ??= { value: parsed.value };
    }
    i = end + 1; // what is inside a balanced candidate is not top-level
  }
  if (firstArray) return firstArray.value;

  const snippet = cleaned.length > 200 ? `${cleaned.slice(0, 200)}…` : cleaned;
  throw new JsonExtractionError(`no parseable JSON object in reply: ${JSON.stringify(snippet)}`);
}

type Parsed = { ok: true; value: unknown } | { ok: false };

function tryParse(s: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(s) };
  } catch {
    // fall through to the repaired text
  }
  const repaired = repair(s);
  if (repaired === s) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(repaired) };
  } catch {
    return { ok: false };
  }
}

/**
 * Index of the bracket closing the one at `start`, or -1. Strings (double-quoted, with
 * escapes) are skipped so brackets inside them do not count.
 */
function balancedEnd(s: string, start: number): number {
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') stack.push('}');
    else if (c === '[') stack.push(']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/** Drops trailing commas before `}`/`]` and escapes raw newlines/tabs inside strings. */
function repair(s: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + (s[i + 1] ?? '');
        i++;
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (c === '\n') out += '\\n';
      else if (c === '\r') out += '\\r';
      else if (c === '\t') out += '\\t';
      else out += c;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === ',') {
      let j = i + 1;
      while (j < s.length && /\s/.test(s[j]!)) j++;
      if (s[j] !== '}' && s[j] !== ']') out += c;
    } else out += c;
  }
  return out;
}
