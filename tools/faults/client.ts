/** The fault tools' REST client: one call, its status, body and time; socket errors as status 0. */
export interface Answer {
  status: number;
  body: any;
  ms: number;
  /** The Retry-After header, when the answer had one. */
  retryAfter?: string;
  error?: string;
}

export type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

export function client(url: string, key: string): Call {
  return async (method, path, body) => {
    const started = performance.now();
    try {
      const res = await fetch(`${url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON
      }
      const retryAfter = res.headers.get('retry-after');
      return {
        status: res.status,
        body: parsed,
        ms: performance.now() - started,
        ...(retryAfter !== null ? { retryAfter } : {}),
      };
    } catch (err) {
      return { status: 0, body: undefined, ms: performance.now() - started, error: String(err) };
    }
  };
}

/** A turn of an invented conversation; `content` is unique when marker is. */
export function turn(sender: string, marker: string, ts: number, role: 'user' | 'assistant' = 'user') {
  const lines = [
    'I started a pottery class on Thursdays.',
    'We are planning a hiking trip to the Dolomites in June.',
    'My manager asked me to lead the billing migration.',
    'I switched to decaf after the doctor visit.',
    'Our team adopted trunk-based development last quarter.',
  ];
  return { role, sender_id: sender, content: `${lines[ts % lines.length]} (${marker})`, timestamp: ts };
}

/** Polls the task stats until nothing is queued, processing or pending (or the time is up). */
export async function waitForTasks(call: Call, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call('GET', '/api/v2/tasks/stats');
    const s = r.body?.data?.by_status;
    const open = s ? s.queued + s.processing + s.pending : -1;
    if (open === 0 || Date.now() > until) return open;
    await new Promise((res) => setTimeout(res, 500));
  }
}

/** How the acknowledged markers show up in the stored message contents (turn() puts them last). */
export function accountFor(acked: Set<string>, contents: string[]): { missing: number; doubled: number } {
  const found = new Map<string, number>();
  for (const content of contents) {
    const m = /\(([^()]+)\)$/.exec(content)?.[1];
    if (m) found.set(m, (found.get(m) ?? 0) + 1);
  }
  let missing = 0;
  let doubled = 0;
  for (const m of acked) {
    const k = found.get(m) ?? 0;
    if (k === 0) missing++;
    if (k > 1) doubled++;
  }
  return { missing, doubled };
}
