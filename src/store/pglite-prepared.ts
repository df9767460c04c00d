import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import type { Row } from '../core/db.js';

/**
 * Statements run as named prepared statements of the PGlite session, one per SQL text
 * (the most recently used PREPARED_MAX kept). PGlite's own `query` sends each statement
 * unnamed (Parse, Describe, Bind, Describe, Execute, Sync: six calls into the WASM
 * backend, the statement parsed and analysed every time); a search runs the same dozen
 * texts with new parameters, so here a text is parsed once and each run is one call
 * (Bind, Describe, Execute, Sync). The session runs with plan_cache_mode =
 * force_custom_plan (see openPglite): every run is still planned for its parameters, as
 * an unnamed statement is, so plans and results do not change; a generic plan was
 * measured to read the approximate (HNSW) branch of a vector statement differently.
 */
export const PREPARED_MAX = 256;

/** SQLSTATE of "cached plan must not change result type" (a table's columns changed under a statement). */
const FEATURE_NOT_SUPPORTED = '0A000';

const { serialize } = protocol;

interface Statement {
  name: string;
  /** Type oid of each parameter, as the backend inferred it (for PGlite's serializers). */
  types: number[];
}

export function preparedQueries(pg: PGlite, max = PREPARED_MAX) {
  const cache = new Map<string, Statement>();
  let seq = 0;
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
    const st = { name, types: parse.parseDescribeStatementResults(described) };
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
