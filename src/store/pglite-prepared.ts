import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { Row } from '../core/db.js';

/**
 * Statements run as named prepared statements of the PGlite session, one per SQL text
 * (the most recently used PREPARED_MAX kept). PGlite's own `query` sends each statement
 * unnamed (Parse, Describe, Bind, Describe, Execute, Sync: six calls into the WASM
 * backend, the statement parsed and analysed every time); a search runs the same dozen
 * texts with new parameters, so here a text is parsed once and each run is one call
 * (Bind, Describe, Execute, Sync). A statement that orders by vector distance (`<=>`) runs
 * with plan_cache_mode = force_custom_plan, every run planned for its parameters as an
 * unnamed statement is: a generic plan was measured to read the approximate (HNSW) branch
 * of a vector statement differently and return other rows. The others run with `auto`
 * (PostgreSQL plans the first five runs for their parameters, then keeps a generic plan
 * when it costs no more): the same rows, without planning each run. The session's setting
 * is switched only when the next statement needs the other one (one SET).
 */
export const PREPARED_MAX = 256;

/** SQLSTATE of "cached plan must not change result type" (a table's columns changed under a statement). */
const FEATURE_NOT_SUPPORTED = '0A000';

const { serialize } = protocol;

interface Statement {
  name: string;
  /** plan_cache_mode its runs need. */
  mode: PlanMode;
  /** Type oid of each parameter, as the backend inferred it (for PGlite's serializers). */
  types: number[];
}

type PlanMode = 'force_custom_plan' | 'auto';
/** The plan_cache_mode a statement runs with (see above). */
export const planModeOf = (text: string): PlanMode => (text.includes('<=>') ? 'force_custom_plan' : 'auto');

export function preparedQueries(pg: PGlite, max = PREPARED_MAX) {
  const cache = new Map<string, Statement>();
  let seq = 0;
  /** The session's plan_cache_mode as last set here (unset: the first run sets it). */
  let mode: PlanMode | undefined;
  const send = (parts: Uint8Array[]) => pg.execProtocolStream(Buffer.concat(parts), {});

  async function prepare(text: string): Promise<Statement> {
    const known = cache.get(text);
    if (known) {
      cache.delete(text);
      cache.set(text, known);
      return known;
    }
    const name = `engram_${seq++}`;
    const described = await send([
      serialize.parse({ name, text }),
      serialize.describe({ type: 'S', name }),
      serialize.sync(),
    ]);
    const st = { name, mode: planModeOf(text), types: parse.parseDescribeStatementResults(described) };
    cache.set(text, st);
    if (cache.size > max) {
      const [oldest, old] = cache.entries().next().value as [string, Statement];
      cache.delete(oldest);
      await send([serialize.close({ type: 'S', name: old.name }), serialize.sync()]);
    }
    return st;
  }

  async function run<T extends Row>(text: string, params: readonly unknown[]): Promise<T[]> {
    const st = await prepare(text);
    if (st.mode !== mode) {
      await send([serialize.query(`SET plan_cache_mode = ${st.mode}`)]);
      mode = st.mode;
    }
    const values = params.map((v, i) => {
      if (v == null) return null;
      const ser = pg.serializers[st.types[i]!];
      return ser ? ser(v) : String(v);
    });
    const messages = await send([
      serialize.bind({ statement: st.name, values }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    ]);
    // as PGlite's query does after a statement outside a transaction
    await pg.syncToFs();
    return (parse.parseResults(messages, pg.parsers)[0]?.rows ?? []) as T[];
  }

  /** Runs one statement (with PGlite's query lock held, as its own query does). */
  return <T extends Row>(text: string, params: readonly unknown[] = []): Promise<T[]> =>
    pg.runExclusive(async () => {
      try {
        return await run<T>(text, params);
      } catch (err) {
        if ((err as { code?: string }).code !== FEATURE_NOT_SUPPORTED || !cache.has(text)) throw err;
        // The statement's tables changed shape since it was prepared: prepare it again.
        const st = cache.get(text)!;
        cache.delete(text);
        await send([serialize.close({ type: 'S', name: st.name }), serialize.sync()]);
        return run<T>(text, params);
      }
    });
}
