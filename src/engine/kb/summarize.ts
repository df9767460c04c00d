import { z } from 'zod';
import type { Logger } from '../../core/log.js';
import type { Llm } from '../../core/ports.js';
import { leadSentences } from '../text.js';
import { plain, type TopicDraft } from './split.js';

/**
 * Summaries of topics and documents: from the configured LLM when there is one, else
 * offline (the lead sentences of the topic's text). An LLM failure on one topic falls
 * back to the offline summary for that topic; ingestion never fails for a summary.
 */
export const MAX_SUMMARY = 300;
const LLM_INPUT = 6000;
const LLM_CONCURRENCY = 4;

const Summary = z.object({ summary: z.string() });

/** The text a topic is about: its content, else its first children's content. */
export function topicText(t: TopicDraft, all: readonly TopicDraft[]): string {
  if (t.content.trim()) return t.content;
  return t.children
    .slice(0, 3)
    .map((c) => all[c]!.content)
    .join('\n\n');
}

export function offlineSummary(text: string, fallback: string): string {
  const p = plain(text);
  return p ? leadSentences(p, MAX_SUMMARY) : fallback;
}

export class Summarizer {
  constructor(
    private readonly llm: Llm | undefined,
    private readonly log: Logger,
  ) {}

  /** One summary per text, in order. */
  async summarize(items: readonly { name: string; text: string; context: string }[]): Promise<string[]> {
    const out = items.map((i) => offlineSummary(i.text, i.name));
    const llm = this.llm;
    if (!llm) return out;
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const i = next++;
        const item = items[i]!;
        if (!item.text.trim()) continue;
        try {
          const r = await llm.json({
            name: 'kb_topic_summary',
            system:
              'You summarise one part of a document for a search index. Answer JSON {"summary": string}: ' +
              'one or two plain sentences (at most 300 characters) saying what this part covers, ' +
              'with its key terms. No preamble.',
            user: `Document context: ${item.context}\nPart: ${item.name}\n\n${item.text.slice(0, LLM_INPUT)}`,
            schema: Summary,
            temperature: 0,
          });
          const s = r.summary.trim();
          if (s) out[i] = s.slice(0, MAX_SUMMARY * 2);
        } catch (err) {
          this.log.warn('kb: topic summary from the LLM failed, using the offline summary', { error: err });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(LLM_CONCURRENCY, items.length) }, worker));
    return out;
  }
}
