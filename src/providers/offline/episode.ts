/**
 * The episode of a segment: a subject (key phrases), a one-or-two-sentence summary and a
 * third-person narrative built message by message from the informative sentences, with
 * names and absolute dates, compressed to the best sentences when too long.
 */

import { dayKey, formatDate } from '../../core/dates.js';
import type { ExtractedEpisode } from '../../core/ports.js';
import { type MessageView, withoutRequest } from './analyze.js';
import { calledTool, describeResult, lowerFirst, statement } from './facts.js';
import { keyPhrases } from './keyphrases.js';
import { capitalize, contentStems, joinAnd, terminate, truncate } from './text.js';

export const MAX_SUBJECT = 200;
export const MAX_SUMMARY = 1000;
export const MAX_EPISODE = 8000;
const MAX_UNIT = 600;
/** Minimum sentence score to appear in the narrative (facts need more). */
const NARRATIVE_MIN_SCORE = 3;

interface Unit {
  text: string;
  score: number;
  /** Starts a new paragraph (a new day). */
  para?: boolean;
}

/** Speakers in order of first appearance (tool messages excluded). */
export function participants(views: readonly MessageView[]): string[] {
  const out: string[] = [];
  for (const v of views) if (v.msg.role !== 'tool' && !out.includes(v.speaker)) out.push(v.speaker);
  return out;
}

function opening(date: string, people: readonly string[]): string {
  if (people.length === 0) return `On ${date}, tools reported results.`;
  if (people.length === 1) return `On ${date}, ${people[0]} wrote.`;
  return `On ${date}, ${joinAnd(people)} had a conversation.`;
}

/** Narrative units for one message: its best statements and question, tool calls, results. */
function messageUnits(views: readonly MessageView[], v: MessageView): Unit[] {
  const units: Unit[] = [];
  if (v.msg.role === 'tool') {
    const caller = views.find((c) => c.msg.tool_calls?.some((t) => t.id === v.msg.tool_call_id));
    const name = caller?.msg.tool_calls?.find((t) => t.id === v.msg.tool_call_id)?.function.name ?? 'a';
    if (v.msg.content.trim())
      units.push({
        text: terminate(`The ${name} tool returned: ${describeResult(v.msg.content, 200)}`),
        score: 4,
      });
    return units;
  }
  const picks = v.sentences
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => !s.filler && !s.question && s.attachedTo < 0 && s.score >= NARRATIVE_MIN_SCORE)
    .sort((a, b) => b.s.score - a.s.score || a.i - b.i)
    .slice(0, 3);
  const question = v.sentences
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => s.question && !s.filler && contentStems(s.core).length >= 2)
    .pop();
  const chosen = [...picks, ...(question ? [question] : [])].sort((a, b) => a.i - b.i);
  for (const { s, i } of chosen) {
    if (s.question) {
      const to = v.addressee ? ` ${v.addressee}` : '';
      const q = s.text.replace(/\s+/g, ' ').trim();
      units.push({
        text: capitalize(`${v.speaker} asked${to}: "${q}"`),
        score: 2 + contentStems(s.core).length * 0.3,
      });
    } else {
      units.push({ text: statement(v, i), score: s.score });
    }
  }
  for (const call of v.msg.tool_calls ?? [])
    units.push({ text: terminate(calledTool(v.speaker, call, 3)), score: 5 });
  return units.map((u) => ({ ...u, text: truncate(u.text, MAX_UNIT) }));
}

/** Keeps the best units within `max` chars, in their original order. */
function compress(units: readonly Unit[], max: number): Unit[] {
  const render = (us: readonly Unit[]): string =>
    us.map((u) => (u.para ? `\n\n${u.text}` : u.text)).join(' ');
  if (render(units).length <= max) return [...units];
  const order = units.map((u, i) => ({ u, i })).sort((a, b) => b.u.score - a.u.score || a.i - b.i);
  const keep = new Set<number>();
  let used = 0;
  for (const { u, i } of order) {
    const cost = u.text.length + 3;
    if (used + cost > max) continue;
    keep.add(i);
    used += cost;
  }
  return units.filter((_, i) => keep.has(i));
}

/** The narrative of a segment (<= MAX_EPISODE chars), never empty. */
export function narrative(views: readonly MessageView[]): string {
  const people = participants(views);
  const first = views[0]?.msg.timestamp ?? 0;
  const units: Unit[] = [{ text: opening(formatDate(first), people), score: 1e9 }];
  let day = dayKey(first);
  let body = 0;
  for (const v of views) {
    if (dayKey(v.msg.timestamp) !== day) {
      day = dayKey(v.msg.timestamp);
      units.push({
        text: `On ${formatDate(v.msg.timestamp)}, the conversation continued.`,
        score: 1e6,
        para: true,
      });
    }
    const us = messageUnits(views, v);
    body += us.length;
    units.push(...us);
  }
  if (body === 0) {
    // Only greetings or fillers: quote them briefly so the episode still says what happened.
    for (const v of views.slice(0, 6)) {
      if (v.msg.role === 'tool' || !v.msg.content.trim()) continue;
      units.push({
        text: terminate(
          capitalize(`${v.speaker} said "${truncate(v.msg.content.replace(/\s+/g, ' ').trim(), 120)}"`),
        ),
        score: 1,
      });
    }
  }
  const kept = compress(units, MAX_EPISODE);
  return truncate(
    kept
      .map((u) => (u.para ? `\n\n${u.text}` : u.text))
      .join(' ')
      .replace(/ \n\n/g, '\n\n'),
    MAX_EPISODE,
  );
}

/**
 * What the episode is about, for key-phrase extraction: its sentences without small talk,
 * and without the request that trails a statement ("I'm vegetarian, so please never
 * suggest meat dishes" -> "I'm vegetarian"); a request standing alone stays (it is the topic).
 */
function topicTexts(views: readonly MessageView[]): string[] {
  return views.flatMap((v) => v.sentences.filter((s) => !s.filler).map((s) => withoutRequest(s.core)));
}

/**
 * The segment's `k` key phrases, chosen first among what its people (role user) said: an
 * assistant's reply elaborates on what it was asked, so its repetitions count (a topic the
 * reply takes up weighs more), but its own phrases ("plan ahead", a list's headings) fill the
 * rest only when the people's messages leave room. A segment of people alone reads the same
 * either way.
 */
export function topicPhrases(views: readonly MessageView[], k: number): string[] {
  const people = participants(views);
  const all = topicTexts(views);
  const humans = views.filter((v) => v.msg.role === 'user');
  if (humans.length === views.length) return keyPhrases(all, k, people);
  const own = keyPhrases(all, k, people, new Set(topicTexts(humans)));
  if (own.length >= k) return own;
  const words = (p: string) => ` ${p.toLowerCase()} `;
  const out = [...own];
  for (const p of keyPhrases(all, k, people)) {
    if (out.length >= k) break;
    if (!out.some((o) => words(o).includes(words(p)) || words(p).includes(words(o)))) out.push(p);
  }
  return out;
}

/** Subject: a few key phrases, or who talked when nothing stands out. */
export function subject(views: readonly MessageView[], phrases = topicPhrases(views, 4)): string {
  const people = participants(views);
  if (phrases.length > 0) return truncate(phrases.join(', '), MAX_SUBJECT);
  return truncate(
    people.length > 1 ? `Conversation between ${joinAnd(people)}` : `Message from ${people[0] ?? 'a tool'}`,
    MAX_SUBJECT,
  );
}

/** One or two sentences: who talked when and about what, then the most telling statement. */
export function summary(views: readonly MessageView[], phrases = topicPhrases(views, 3)): string {
  const people = participants(views);
  const stamps = views.map((v) => v.msg.timestamp);
  const from = formatDate(Math.min(...stamps));
  const to = formatDate(Math.max(...stamps));
  const when = from === to ? `on ${from}` : `between ${from} and ${to}`;
  const proper = views[0]?.proper ?? new Set<string>();
  const topics = phrases.slice(0, 3).map((t) => lowerFirst(t, proper));
  const who = people.length ? capitalize(joinAnd(people)) : 'Tools';
  const verb = people.length > 1 ? 'talked' : 'wrote';
  const head = topics.length
    ? `${who} ${verb} about ${joinAnd(topics)} ${when}.`
    : `${who} ${people.length > 1 ? 'exchanged greetings' : 'sent a short message'} ${when}.`;
  let best: { text: string; score: number } | null = null;
  for (const v of views) {
    v.sentences.forEach((s, i) => {
      if (!s.filler && !s.question && s.attachedTo < 0 && s.firstPerson && (!best || s.score > best.score)) {
        best = { text: statement(v, i), score: s.score };
      }
    });
  }
  const top = best as { text: string; score: number } | null;
  const tools = [...new Set(views.flatMap((v) => (v.msg.tool_calls ?? []).map((t) => t.function.name)))];
  const second = tools.length ? `Tools used: ${joinAnd(tools.slice(0, 5))}.` : top ? top.text : '';
  const out = second && head.length + second.length + 1 <= MAX_SUMMARY ? `${head} ${second}` : head;
  return truncate(out, MAX_SUMMARY);
}

/** Everything of the episode except facts. */
export function buildEpisode(views: readonly MessageView[]): Omit<ExtractedEpisode, 'facts'> {
  const phrases = topicPhrases(views, 4);
  return { subject: subject(views, phrases), summary: summary(views, phrases), episode: narrative(views) };
}
