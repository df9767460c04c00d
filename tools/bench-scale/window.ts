/** A measured window after a warm-up, and what was acknowledged in it. */
export interface LoadResult {
  messages: number;
  requests: number;
  errors: string[];
  latenciesMs: number[];
  /** Messages acknowledged in all, warm-up and window. */
  total: number;
  /** CPU time of the process that made the requests (user + system), when it is another. */
  cpuMs: number;
  seconds: number;
}

export function measureWindow(warmupSeconds: number, seconds: number) {
  const from = performance.now() + warmupSeconds * 1000;
  const until = from + seconds * 1000;
  const result: LoadResult = {
    messages: 0,
    requests: 0,
    errors: [],
    latenciesMs: [],
    total: 0,
    cpuMs: 0,
    seconds,
  };
  return {
    result,
    open: () => performance.now() < until,
    /** A request of n messages acknowledged; it counts when it ran inside the window. */
    record(started: number, ended: number, n: number) {
      result.total += n;
      if (started < from || ended > until) return;
      result.messages += n;
      result.requests++;
      result.latenciesMs.push(ended - started);
    },
  };
}
