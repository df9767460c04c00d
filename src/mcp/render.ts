import type { KbSearchHit } from '../contract/kb.js';
import type { GetData } from '../contract/memory-read.js';
import type { SearchData } from '../contract/search.js';
import { type ContextUnit, contextUnits, packContext, rankUnits } from '../engine/search/context.js';
import { clip as clipTo, tokenCount } from '../engine/text.js';
import { formatKbUri } from './uris-kb.js';

/**
 * Text renderings of memories for a model: recall's token-bounded context (and the
 * recall_context prompt), and get_memories' listing. Tokens are estimated as
 * ceil(characters / 4).
 */

const ENTRY_CHARS = 700;
const clip = (s: string, n = ENTRY_CHARS) => clipTo(s, n);
const day = (iso: string) => iso.slice(0, 10);
const score = (s: number | null | undefined) => (typeof s === 'number' ? `, score ${s.toFixed(2)}` : '');

interface Section {
  title: string;
  entries: string[];
}

/** What both get and search return; scores only come from search. */
type Hits = Omit<GetData, 'total_count' | 'count' | 'episodes' | 'agent_cases' | 'agent_skills'> & {
  episodes: (GetData['episodes'][number] & { score?: number })[];
  agent_cases: (GetData['agent_cases'][number] & { score?: number })[];
  agent_skills: (GetData['agent_skills'][number] & { score?: number })[];
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
  return out;
}

export interface Rendered {
  text: string;
  tokens: number;
  /** Entries left out to stay within the budget. */
  omitted: number;
}

/** Knowledge-base topics as context units, scored like the memories beside them. */
const topicUnits = (topics: readonly KbSearchHit[] = []): ContextUnit[] =>
  topics.map((t) => ({
    kind: 'topic',
    id: t.id,
    text:
      `- ${clip(t.name, 160)} (${clip(t.document.title, 160)}): ${clip(t.summary ?? '', 500)} ` +
      `(${formatKbUri({ type: 'topic', kbId: t.kb_id, docId: t.doc_id, topicId: t.id })})`,
    score: t.score,
    sources: [],
  }));

/**
 * recall's text: the search's units (facts, turns, profile items, cases, skills and
 * knowledge-base topics) ranked together and packed whole into max_tokens
 * (engine/search/context.ts).
 */
export function renderRecall(
  query: string,
  data: SearchData & { topics?: KbSearchHit[] },
  maxTokens: number,
): Rendered {
  const units = rankUnits([...contextUnits(data, undefined, maxTokens * 4), ...topicUnits(data.topics)]);
  if (units.length === 0) {
    const text = `No memories found for "${clip(query, 200)}".`;
    return { text, tokens: tokenCount(text), omitted: 0 };
  }
  const packed = packContext(units, maxTokens);
  return { text: packed.text, tokens: packed.tokens, omitted: packed.omitted };
}

/** get_memories as text: one entry per record (episodes with their narrative), no budget. */
export function renderMemories(data: GetData, page: number): string {
  const all = sections(data, true);
  const head = `${data.count} of ${data.total_count} (page ${page}).`;
  if (!all.length) return `No memories (total ${data.total_count}).`;
  return [head, ...all.map((s) => `## ${s.title}\n${s.entries.join('\n')}`)].join('\n\n');
}
