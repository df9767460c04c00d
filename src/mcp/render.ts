import type { KbSearchHit } from '../contract/kb.js';
import type { GetData } from '../contract/memory-read.js';
import type { SearchData } from '../contract/search.js';
import { tokenCount } from '../engine/text.js';
import { formatKbUri } from './uris-kb.js';

/**
 * The compact, token-bounded rendering of a search that recall (and the recall_context
 * prompt) hands to a model. Tokens are estimated as ceil(characters / 4). Sections come in
 * order of usefulness (profile, episodes, agent cases, skills, knowledge-base topics,
 * messages not yet extracted);
 * within a section hits keep the engine's ranking. Whole entries are dropped past the
 * budget, and a last line says how many.
 */

const ENTRY_CHARS = 700;
const clip = (s: string, n = ENTRY_CHARS) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length <= n ? t : `${t.slice(0, n - 1)}…`;
};
const day = (iso: string) => iso.slice(0, 10);
const score = (s: number | null | undefined) => (typeof s === 'number' ? `, score ${s.toFixed(2)}` : '');

interface Section {
  title: string;
  entries: string[];
}

/** What both get and search return; scores and unprocessed messages only come from search. */
type Hits = Omit<GetData, 'total_count' | 'count' | 'episodes' | 'agent_cases' | 'agent_skills'> & {
  episodes: (GetData['episodes'][number] & { score?: number })[];
  agent_cases: (GetData['agent_cases'][number] & { score?: number })[];
  agent_skills: (GetData['agent_skills'][number] & { score?: number })[];
  unprocessed_messages?: SearchData['unprocessed_messages'];
  topics?: KbSearchHit[];
};

function sections(data: Hits, narrative = false): Section[] {
  const out: Section[] = [];
  const profiles = data.profiles.flatMap((p) => {
    const d = p.profile_data;
    const items = [...d.explicit_info, ...d.implicit_traits].map(
      (i) => `- ${clip(i.description, 300)} (item ${i.item_id})`,
    );
    const head = `${p.user_id}${d.summary ? `: ${clip(d.summary, 500)}` : ''} (profile ${p.id})`;
    return [head, ...items];
  });
  if (profiles.length) out.push({ title: 'Profile', entries: profiles });
  if (data.episodes.length)
    out.push({
      title: 'Episodes',
      entries: data.episodes.map((e) => {
        const facts = e.atomic_facts.slice(0, 3).map((f) => `\n  - ${clip(f.content, 240)}`);
        const story = narrative ? `\n  ${clip(e.episode, 2000)}` : '';
        return `- [${day(e.timestamp)}] ${clip(e.subject, 160)}: ${clip(e.summary)} (episode ${e.id}${score(e.score)})${story}${facts.join('')}`;
      }),
    });
  if (data.agent_cases.length)
    out.push({
      title: 'Agent cases',
      entries: data.agent_cases.map(
        (c) =>
          `- [${day(c.timestamp)}] ${clip(c.task_intent, 240)} -> ${clip(c.approach, 400)}` +
          `${c.key_insight ? `; insight: ${clip(c.key_insight, 240)}` : ''} (agent_case ${c.id}${score(c.score)})`,
      ),
    });
  if (data.agent_skills.length)
    out.push({
      title: 'Agent skills',
      entries: data.agent_skills.map(
        (s) => `- ${clip(s.name, 120)}: ${clip(s.description, 400)} (agent_skill ${s.id}${score(s.score)})`,
      ),
    });
  if (data.topics?.length)
    out.push({
      title: 'Knowledge base',
      entries: data.topics.map(
        (t) =>
          `- ${clip(t.name, 160)} (${clip(t.document.title, 160)}): ${clip(t.summary ?? '', 500)} ` +
          `(${formatKbUri({ type: 'topic', kbId: t.kb_id, docId: t.doc_id, topicId: t.id })}${score(t.score)})`,
      ),
    });
  if (data.unprocessed_messages?.length)
    out.push({
      title: 'Recent messages (not yet extracted)',
      entries: data.unprocessed_messages.map((m) => {
        const body = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
        return `- [${day(m.timestamp)}] ${m.sender_name ?? m.sender_id}: ${clip(body, 400)}`;
      }),
    });
  return out;
}

export interface Rendered {
  text: string;
  tokens: number;
  /** Entries left out to stay within the budget. */
  omitted: number;
}

export function renderRecall(
  query: string,
  data: SearchData & { topics?: KbSearchHit[] },
  maxTokens: number,
): Rendered {
  const all = sections(data);
  const total = all.reduce((n, s) => n + s.entries.length, 0);
  if (total === 0) {
    const text = `No memories found for "${clip(query, 200)}".`;
    return { text, tokens: tokenCount(text), omitted: 0 };
  }
  const reserve = 24; // room for the "omitted" line
  const budget = Math.max(0, maxTokens - reserve) * 4;
  let text = '';
  let shown = 0;
  outer: for (const s of all) {
    let head = `${text ? '\n' : ''}## ${s.title}\n`;
    for (const e of s.entries) {
      const piece = `${head}${e}\n`;
      if (text.length + piece.length > budget) break outer;
      text += piece;
      head = '';
      shown++;
    }
  }
  const omitted = total - shown;
  if (omitted > 0)
    text += `\n(${omitted} more result${omitted === 1 ? '' : 's'} omitted to stay within max_tokens)\n`;
  text = text.trimEnd();
  return { text, tokens: tokenCount(text), omitted };
}

/** get_memories as text: one entry per record (episodes with their narrative), no budget. */
export function renderMemories(data: GetData, page: number): string {
  const all = sections(data, true);
  const head = `${data.count} of ${data.total_count} (page ${page}).`;
  if (!all.length) return `No memories (total ${data.total_count}).`;
  return [head, ...all.map((s) => `## ${s.title}\n${s.entries.join('\n')}`)].join('\n\n');
}
