import type { TaskItem } from '../contract/records.js';

/** What get_task tells a model about a task: its state and, once done, what it did. */
export function renderTask(
  t: { item: TaskItem; sessionId: string | undefined; payload: Record<string, unknown>; result: unknown },
  idleMinutes: number,
): string {
  const { item } = t;
  const head = `Task ${item.id} (${item.task_type}) is ${item.status}`;
  if (item.status === 'failed') return `${head}: ${item.error ?? 'unknown error'}.`;
  if (item.task_type === 'kb.ingest') return ingestText(head, item);
  if (item.status !== 'success') return `${head}; nothing of it is extracted yet. Ask again later.`;
  const r = t.result as { segments?: number; extracted?: number; buffered?: number } | null;
  if (item.task_type !== 'memory.process' || !r || typeof r.extracted !== 'number') return `${head}.`;
  const session = t.sessionId ? ` of session ${t.sessionId}` : '';
  const parts = [
    r.extracted > 0
      ? `${plural(r.extracted, 'segment')}${session} extracted into memory (episodes, profile, agent cases)`
      : `nothing new extracted${session}`,
  ];
  const buffered = r.buffered ?? 0;
  if (buffered > 0) {
    const idle = idleMinutes > 0 ? `, after ${idleMinutes} idle minutes,` : '';
    parts.push(
      `when it finished, ${plural(buffered, 'message')} were still buffered, waiting for an extraction boundary (recall finds them ` +
        `already; they are extracted at a day change, a long gap, a topic shift${idle} or by flush_session)`,
    );
  } else parts.push('when it finished, no message of the session was left waiting');
  return `${head}: ${parts.join('; ')}.`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A document being split into topics: how far it got, or how many topics it became. */
function ingestText(head: string, item: TaskItem): string {
  const p = item.progress;
  if (item.status === 'success')
    return `${head}: document ${item.object_id} is split into ${plural(Math.max(0, (p?.total ?? 1) - 1), 'topic')}, searchable now.`;
  if (p && p.total > 0)
    return `${head}: ${p.done} of ${p.total} topics summarised and embedded. Ask again later.`;
  return `${head}; the document is not split yet. Ask again later.`;
}
