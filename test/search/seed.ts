import { randomBytes } from 'node:crypto';
import { SearchInput } from '../../src/contract/search.js';
import type { Db, Sql } from '../../src/core/db.js';
import { silentLogger } from '../../src/core/log.js';
import { postingsDepth } from '../../src/engine/search/keyword.js';
import { SearchService } from '../../src/engine/search/service.js';
import { VectorIndex, type VectorIndexOptions } from '../../src/engine/vector-index.js';
import { migrate } from '../../src/store/migrate.js';
import { createTestDatabase, type Driver, type TestDatabase } from '../helpers/drivers.js';
import { HashEmbedder } from '../helpers/hash-embedder.js';

/** A statement sent through a recording Db. */
export interface Sent {
  text: string;
  params: Parameters<Sql['query']>[1];
}

/** The Db with every statement sent through it recorded, in order (`sent`). */
export function recording(db: Db): { db: Db; sent: Sent[] } {
  const sent: Sent[] = [];
  const query: Sql['query'] = (text, params) => {
    sent.push({ text, params });
    return db.query(text, params);
  };
  return { db: Object.assign(Object.create(db) as Db, { query }), sent };
}

/** The lines of a statement's plan; `options` are EXPLAIN's (e.g. `VERBOSE`, `COSTS OFF`). */
export async function planLines(
  q: Sql,
  sql: string,
  params: Sent['params'],
  options: string,
): Promise<string[]> {
  const rows = await q.query<Record<string, string>>(`EXPLAIN (${options}) ${sql}`, params);
  return rows.map((r) => Object.values(r)[0]!);
}

/**
 * Direct inserts of memories for search tests (exact texts, owners, times and vectors
 * from the test embedder), plus a migrated database and a SearchService over it.
 */
export const T0 = Date.UTC(2024, 4, 8, 13, 0, 0);
export const HOUR = 3_600_000;
export const hex24 = () => randomBytes(12).toString('hex');

export interface Fixture {
  database: TestDatabase;
  db: Db;
  embedder: HashEmbedder;
  index: VectorIndex;
  search: SearchService;
}

export async function openFixture(
  driver: Driver,
  opts: VectorIndexOptions = {},
  dimensions = 64,
): Promise<Fixture> {
  const database = await createTestDatabase(driver);
  await migrate(database.db);
  const embedder = new HashEmbedder(dimensions);
  const index = await VectorIndex.setup(database.db, embedder, silentLogger, opts);
  const search = new SearchService({ db: database.db, embedder, log: silentLogger, vectorIndex: index });
  return { database, db: database.db, embedder, index, search };
}

/** A search of tenant-a on the fixture opened in beforeAll, the input a request body as the API takes it. */
export const searchOf =
  (fixture: () => Fixture) =>
  (input: Record<string, unknown>): ReturnType<SearchService['search']> =>
    fixture().search.search({ tenantId: 'tenant-a' }, SearchInput.parse(input));

const vec = async (e: HashEmbedder, text: string) => `[${(await e.embed([text]))[0]!.join(',')}]`;

export interface EpisodeSeed {
  tenant?: string;
  app?: string;
  project?: string;
  owners: string[];
  senders?: string[];
  session?: string;
  ts?: number;
  subject: string;
  summary?: string;
  episode?: string;
  facts?: string[];
  /** The message each fact rests on (fresh ids by default). */
  sources?: string[];
  deleted?: boolean;
}

/** Inserts an episode and its facts; each fact's source is one fresh message id. */
export async function seedEpisode(f: Fixture, s: EpisodeSeed) {
  const id = hex24();
  const tenant = s.tenant ?? 'tenant-a';
  const app = s.app ?? 'default';
  const project = s.project ?? 'default';
  const summary = s.summary ?? s.subject;
  const episode = s.episode ?? summary;
  const factIds = (s.facts ?? []).map(() => hex24());
  const sources = (s.facts ?? []).map((_, i) => s.sources?.[i] ?? hex24());
  const ts = s.ts ?? T0;
  await f.db.query(
    `INSERT INTO episodes (tenant_id, id, app_id, project_id, session_id, owner_ids, sender_ids, ts, subject, summary,
                           episode, type, source_message_ids, embedding, deleted_at)
     VALUES ($1, $2, $3, $4, $5, ARRAY(SELECT jsonb_array_elements_text($6::jsonb)),
             ARRAY(SELECT jsonb_array_elements_text($7::jsonb)), $8, $9, $10, $11, 'Conversation', $12::jsonb,
             $13::vector, $14)`,
    [
      tenant,
      id,
      app,
      project,
      s.session ?? 's1',
      JSON.stringify(s.owners),
      JSON.stringify(s.senders ?? s.owners),
      ts,
      s.subject,
      summary,
      episode,
      JSON.stringify(sources.length ? sources : [hex24()]),
      await vec(f.embedder, `${s.subject}\n${summary}\n${episode}`),
      s.deleted ? new Date() : null,
    ],
  );
  for (const [i, content] of (s.facts ?? []).entries())
    await f.db.query(
      `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, session_id, owner_ids, ts, content,
                                 source_message_ids, embedding, deleted_at)
       VALUES ($1, $2, $3, $4, $5, $6, ARRAY(SELECT jsonb_array_elements_text($7::jsonb)), $8, $9, $10::jsonb, $11::vector,
               $12)`,
      [
        tenant,
        factIds[i],
        id,
        app,
        project,
        s.session ?? 's1',
        JSON.stringify(s.owners),
        ts,
        content,
        JSON.stringify([sources[i]]),
        await vec(f.embedder, content),
        // deleted with their episode, as every path deleting an episode writes them
        s.deleted ? new Date() : null,
      ],
    );
  return { id, factIds, sources };
}

export async function seedCase(
  f: Fixture,
  s: { agent: string; intent: string; approach: string; session?: string; ts?: number; tenant?: string },
) {
  const id = hex24();
  await f.db.query(
    `INSERT INTO agent_cases (tenant_id, id, app_id, project_id, agent_id, session_id, ts, task_intent, approach,
                              quality_score, source_message_ids, embedding)
     VALUES ($1, $2, 'default', 'default', $3, $4, $5, $6, $7, 0.8, $8::jsonb, $9::vector)`,
    [
      s.tenant ?? 'tenant-a',
      id,
      s.agent,
      s.session ?? 's1',
      s.ts ?? T0,
      s.intent,
      s.approach,
      JSON.stringify([hex24()]),
      await vec(f.embedder, `${s.intent}\n${s.approach}`),
    ],
  );
  return id;
}

export async function seedSkill(
  f: Fixture,
  s: { agent: string; name: string; description: string; content: string },
) {
  const id = hex24();
  await f.db.query(
    `INSERT INTO agent_skills (tenant_id, id, app_id, project_id, agent_id, name, description, content,
                               source_case_ids, source_message_ids, embedding)
     VALUES ('tenant-a', $1, 'default', 'default', $2, $3, $4, $5, '[]', $6::jsonb, $7::vector)`,
    [
      id,
      s.agent,
      s.name,
      s.description,
      s.content,
      JSON.stringify([hex24()]),
      await vec(f.embedder, `${s.name}\n${s.description}\n${s.content}`),
    ],
  );
  return id;
}

export async function seedMessage(
  f: Fixture,
  s: {
    session: string;
    sender: string;
    /** The sender's name (the sender id in capitals by default). */
    name?: string;
    content: string;
    state?: string;
    ts?: number;
    role?: string;
    tenant?: string;
    /** Owners of an extracted turn (the humans of its segment); the sender by default. */
    owners?: string[];
  },
) {
  const id = hex24();
  const extracted = s.state === 'extracted';
  await f.db.query(
    `INSERT INTO messages (tenant_id, id, app_id, project_id, session_id, sender_id, sender_name, role, content, ts, state,
                           owner_ids)
     VALUES ($1, $2, 'default', 'default', $3, $4, $5, $6, $7, $8, $9, $10::text[])`,
    [
      s.tenant ?? 'tenant-a',
      id,
      s.session,
      s.sender,
      s.name ?? s.sender.toUpperCase(),
      s.role ?? 'user',
      s.content,
      s.ts ?? T0,
      s.state ?? 'buffered',
      extracted ? (s.owners ?? [s.sender]) : null,
    ],
  );
  return id;
}

export async function seedProfile(f: Fixture, user: string) {
  const id = hex24();
  const data = { summary: `${user} likes hiking`, explicit_info: [], implicit_traits: [] };
  await f.db.query(
    `INSERT INTO profiles (tenant_id, id, app_id, project_id, user_id, profile_data)
     VALUES ('tenant-a', $1, 'default', 'default', $2, $3::jsonb)`,
    [id, user, JSON.stringify(data)],
  );
  return id;
}

/**
 * One episode of `owner` with more facts holding "kite" than one postings list read reaches
 * (postingsDepth(50) + 200), lengths and field weights varied; "pier" in 6 of 7, "string
 * snapped" in every 11th.
 */
export async function seedKites(f: Fixture, owner: string): Promise<void> {
  const ep = await seedEpisode(f, { owners: [owner], subject: 'kites', facts: [] });
  await f.db.query(
    `INSERT INTO atomic_facts (tenant_id, id, episode_id, app_id, project_id, owner_ids, ts, content)
     SELECT 'tenant-a', md5('kite' || g), $1, 'default', 'default', ARRAY[$3], g,
            repeat('kite ', 1 + g % 3) || 'flown ' || repeat('on the windy beach near the old pier ', g % 7)
            || CASE WHEN g % 11 = 0 THEN 'string snapped' ELSE '' END
     FROM generate_series(1, $2::int) g`,
    [ep.id, postingsDepth(50) + 200, owner],
  );
}
