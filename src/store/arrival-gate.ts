import { arrivedAt } from '../core/arrival.js';

interface Waiting {
  at: number;
  seq: number;
  go: () => void;
}

/**
 * One statement (or transaction) at a time on the embedded store's one connection, in
 * order of the arrival of the work that issued it (core/arrival.ts), with a turn of the
 * event loop between two.
 *
 * PGlite runs each statement synchronously in this thread and chains the next through
 * promises, so without the turn a burst of queued statements ran as one long stretch of
 * microtasks: the listener accepted about one new connection per stretch, and a client's
 * first request under 50 busy clients waited 20-30 s to be read. Serving by arrival
 * instead of first-come statement order keeps a request from waiting behind work that
 * arrived after it (a long job's statements do not each queue behind every newer request).
 */
export class ArrivalGate {
  private busy = false;
  private seq = 0;
  private readonly waiting: Waiting[] = [];

  async run<T>(fn: () => Promise<T>): Promise<T> {
    await this.enter();
    try {
      return await fn();
    } finally {
      setImmediate(() => this.next());
    }
  }

  private enter(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((go) => {
      const w: Waiting = { at: arrivedAt(), seq: this.seq++, go };
      let i = this.waiting.length;
      while (i > 0 && before(w, this.waiting[i - 1]!)) i--;
      this.waiting.splice(i, 0, w);
    });
  }

  private next(): void {
    const w = this.waiting.shift();
    if (w) w.go();
    else this.busy = false;
  }
}

const before = (a: Waiting, b: Waiting) => a.at < b.at || (a.at === b.at && a.seq < b.seq);
