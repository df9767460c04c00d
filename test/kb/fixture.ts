import type { TestServer } from '../helpers/engram.js';

/**
 * An invented operations manual (Markdown) with headings, lists, a table and one long
 * section that must be cut into element topics, and helpers to ingest and wait.
 */
const longProcedure = Array.from(
  { length: 14 },
  (_, i) =>
    `Step ${i + 1} of the drum cleaning: loosen the ${['north', 'east', 'south', 'west'][i % 4]} access panel, ` +
    `brush the chaff from the drum vanes with the nylon brush, vacuum the residue and wipe the thermocouple ` +
    `probe with isopropyl alcohol. Check the gasket ${i + 1} for cracks before closing the panel again, ` +
    `because a leaking gasket lets smoke into the cooling tray and taints the next batch.`,
).join('\n\n');

export const MANUAL_TITLE = 'Harbour Street Roastery Operations Manual';
export const MANUAL = `Welcome to the roastery. This manual covers roasting, cleaning and safety for every shift.

# Roasting

Roasting turns green beans into coffee. Every batch is logged in the roast journal.

## Charge temperature

Preheat the drum to 205 degrees Celsius before charging a batch of green beans.
Lower the charge temperature to 195 degrees for decaf lots, which scorch easily.

## Roast profiles

| Profile | First crack | Drop |
|---|---|---|
| Filter | 9:30 | 11:00 |
| Espresso | 10:15 | 12:45 |

# Cleaning

## Weekly drum cleaning

${longProcedure}

## Chaff collector

- Empty the chaff collector after every fourth batch.
- Chaff is flammable: never leave a full collector overnight.

# Safety

## Fire in the drum

If smoke pours from the drum, cut the gas, keep the drum turning and close the exhaust damper.
Never open the drum door during a drum fire: fresh air feeds the flames.
`;

export const GARDEN = `Compost needs greens and browns in equal measure.

Turn the heap every fortnight so air reaches the middle.

A heap that smells of ammonia has too many greens: add shredded cardboard.`;

/** Polls the task until it finishes; returns its final item. */
export async function waitTask(s: TestServer, key: string, taskId: string, timeoutMs = 60_000): Promise<any> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await s.call('GET', `/api/v2/tasks/${taskId}`, { key });
    if (r.body?.data?.status === 'success' || r.body?.data?.status === 'failed') return r.body.data;
    if (Date.now() > until) throw new Error(`task ${taskId} did not finish: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** Creates a knowledge base and returns its id. */
export async function createKb(s: TestServer, key: string, name = 'Roastery'): Promise<string> {
  const r = await s.call('POST', '/api/v2/knowledge_bases', { key, body: { name } });
  if (r.status !== 201) throw new Error(`create kb: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.data.id;
}

/** Ingests a text document and waits for its topics; returns the document id. */
export async function ingest(
  s: TestServer,
  key: string,
  kbId: string,
  title: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const r = await s.call('POST', `/api/v2/knowledge_bases/${kbId}/documents`, {
    key,
    body: { title, content: { type: 'text', text }, ...extra },
  });
  if (r.status !== 202) throw new Error(`ingest: ${r.status} ${JSON.stringify(r.body)}`);
  const task = await waitTask(s, key, r.body.data.task_id);
  if (task.status !== 'success') throw new Error(`ingest task failed: ${JSON.stringify(task)}`);
  return r.body.data.id;
}
