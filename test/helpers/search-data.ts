import type { SearchData } from '../../src/contract/search.js';

/** Pieces of a search answer (SearchData) for tests of what is made of one, without a store. */
export const T = '2025-04-02T10:00:00.000Z';

export const fact = (id: string, content: string, score: number, sources: string[]) => ({
  id,
  content,
  score,
  source_message_ids: sources,
  timestamp: T,
});

/** A scored turn of session s1, said by `sender` (display name; id = its lowercase). */
export const turn = (id: string, content: string, score: number, sender = 'Nora') => ({
  id,
  app_id: 'default',
  project_id: 'default',
  session_id: 's1',
  sender_id: sender.toLowerCase(),
  sender_name: sender,
  role: 'user' as const,
  content,
  timestamp: T,
  tool_calls: null,
  tool_call_id: null,
  score,
});

/** A hybrid answer of one episode (e1, scored 0.7) with these facts, and these turns. */
export const answerOf = (
  facts: ReturnType<typeof fact>[],
  messages: ReturnType<typeof turn>[],
  episode: { subject: string; summary: string } = { subject: 'conversation', summary: 'A conversation.' },
): SearchData => ({
  episodes: [{ id: 'e1', ...episode, timestamp: T, score: 0.7, atomic_facts: facts } as never],
  profiles: [],
  agent_cases: [],
  agent_skills: [],
  unprocessed_messages: [],
  messages,
  metadata: { method: 'hybrid', degraded: false, queries: ['q'], took_ms: 1 } as never,
});
