import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * When the work issuing a statement arrived: a request's start, a background job's claim,
 * a sweep's start. The embedded store, whose one connection every request and job shares,
 * serves statements oldest arrival first (store/arrival-gate.ts), so a request waits for
 * the work that arrived before it, never behind work that arrived later.
 */
const arrivals = new AsyncLocalStorage<number>();

/** The arrival of the work running now; work with none counts as arriving now. */
export const arrivedAt = (): number => arrivals.getStore() ?? performance.now();

/** Runs fn (and everything it starts) as work arriving now. */
export const asArrivingNow = <T>(fn: () => T): T => arrivals.run(performance.now(), fn);
