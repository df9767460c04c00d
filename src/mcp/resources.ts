import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Resource,
  type ResourceTemplate,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { GetInput } from '../contract/memory-read.js';
import { EngramError, fromZod, toEngramError } from '../core/errors.js';
import { listOwners } from '../engine/memory/owners.js';
import { memoryById } from './catalog.js';
import { KB_TEMPLATES, kbUriAffected, listKbResources, readKbResource } from './resources-kb.js';
import type { ToolEnv } from './tools/tool.js';
import { formatUri, OWNER_KINDS, parseUri, type ResourceRef, urisForChange } from './uris.js';
import { formatKbUri, parseKbUri } from './uris-kb.js';

/**
 * Memory as MCP resources: a template per memory kind by owner and one per memory by id,
 * resources/list over every owner that has memories (paginated), JSON contents of bounded
 * size, and resources/subscribe: a subscriber gets notifications/resources/updated when a
 * committed change (extract, update, delete) touches that memory set.
 */
const JSON_TYPE = 'application/json';
const LIST_PAGE = 100;
/** Contents larger than this drop trailing items (and say so). */
export const MAX_RESOURCE_CHARS = 256_000;
/** Resource reads that name no memory: the JSON-RPC code the MCP spec gives them. */
const RESOURCE_NOT_FOUND = -32002;

export const TEMPLATES: ResourceTemplate[] = [
  {
    name: 'user-episodes',
    title: "A user's episodes",
    uriTemplate: 'engram://{app_id}/{project_id}/users/{user_id}/episodes',
    description: 'Episodes remembered about a user, newest first; ?page=N&page_size=M (max 100).',
    mimeType: JSON_TYPE,
  },
  {
    name: 'user-profile',
    title: "A user's profile",
    uriTemplate: 'engram://{app_id}/{project_id}/users/{user_id}/profile',
    description: 'The profile (explicit facts and implicit traits) engram keeps about a user.',
    mimeType: JSON_TYPE,
  },
  {
    name: 'agent-cases',
    title: "An agent's cases",
    uriTemplate: 'engram://{app_id}/{project_id}/agents/{agent_id}/cases',
    description: 'Tasks an agent carried out (intent, approach, quality, insight), newest first; paginated.',
    mimeType: JSON_TYPE,
  },
  {
    name: 'agent-skills',
    title: "An agent's skills",
    uriTemplate: 'engram://{app_id}/{project_id}/agents/{agent_id}/skills',
    description: "Skills consolidated from an agent's cases; paginated.",
    mimeType: JSON_TYPE,
  },
  ...(['episodes', 'cases', 'skills'] as const).map((kind) => ({
    name: `${kind.slice(0, -1)}-by-id`,
    title: `One ${kind === 'episodes' ? 'episode' : kind === 'cases' ? 'agent case' : 'agent skill'} by id`,
    uriTemplate: `engram://{app_id}/{project_id}/${kind}/{id}`,
    mimeType: JSON_TYPE,
  })),
  ...KB_TEMPLATES,
];

const MEMORY_TYPE = {
  episodes: 'episode',
  profile: 'profile',
  cases: 'agent_case',
  skills: 'agent_skill',
} as const;

/**
 * Where a session keeps its subscriptions. Without one (stdio), they live in this process
 * and changes this process commits are sent at once; an HTTP session keeps them in the
 * database and receives its notifications through the shared outbox (shared-state.ts).
 */
export interface SubscriptionStore {
  add(uri: string): Promise<void>;
  remove(uri: string): Promise<void>;
}

/** Serves resources/* on a low-level server for one tenant; returns the cleanup. */
export function installResources(server: Server, env: ToolEnv, store?: SubscriptionStore): () => void {
  const { ctx } = env;
  const subscriptions = new Set<string>();
  server.registerCapabilities({ resources: { subscribe: true, listChanged: false } });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async (req) =>
    guard(async () => {
      await env.ready;
      return listResources(env, req.params?.cursor);
    }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (req) =>
    guard(async () => {
      await env.ready;
      const text = await readResource(env, req.params.uri);
      return { contents: [{ uri: req.params.uri, mimeType: JSON_TYPE, text }] };
    }),
  );
  server.setRequestHandler(SubscribeRequestSchema, async (req) => {
    const uri = canonical(req.params.uri);
    if (store) await guard(() => store.add(uri));
    else subscriptions.add(uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (req) => {
    const uri = canonical(req.params.uri);
    if (store) await guard(() => store.remove(uri));
    else subscriptions.delete(uri);
    return {};
  });
  if (store) return () => {};
  const notify = (uri: string) => server.sendResourceUpdated({ uri }).catch(() => {});
  const listen = () => {
    const stopMemory = env.engram.events.on((change) => {
      if (change.tenantId !== ctx.tenantId || subscriptions.size === 0) return;
      for (const uri of new Set(urisForChange(change))) if (subscriptions.has(uri)) notify(uri);
    });
    const stopKb = env.engram.events.onKb((change) => {
      if (change.tenantId !== ctx.tenantId) return;
      for (const uri of subscriptions) if (kbUriAffected(uri, change)) notify(uri);
    });
    return () => {
      stopMemory();
      stopKb();
    };
  };
  if (!env.ready) return listen();
  let stop: (() => void) | undefined;
  let stopped = false;
  env.ready.then(
    () => {
      if (!stopped) stop = listen();
    },
    () => {},
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

function canonical(uri: string): string {
  const kb = parseKbUri(uri);
  if (kb) return formatKbUri(kb);
  const parsed = parseUri(uri);
  if (!parsed) throw new McpError(ErrorCode.InvalidParams, `not an engram resource URI: ${uri}`);
  return formatUri(parsed.ref);
}

/** Engine failures as JSON-RPC errors carrying the engram code and message. */
async function guard<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof McpError) throw err;
    const e = toEngramError(err);
    const code =
      e.code === 'NotFound'
        ? RESOURCE_NOT_FOUND
        : e.status < 500
          ? ErrorCode.InvalidParams
          : ErrorCode.InternalError;
    throw new McpError(code, e.message, { code: e.code, param: e.param ?? null });
  }
}

interface Cursor {
  k: number;
  o: number;
}

const cursorOf = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

async function listResources(env: ToolEnv, cursor: string | undefined) {
  let at: Cursor = { k: 0, o: 0 };
  if (cursor) {
    try {
      at = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Cursor;
    } catch {
      at = { k: -1, o: -1 };
    }
    if (!Number.isInteger(at.k) || !Number.isInteger(at.o) || at.k < 0 || at.o < 0)
      throw new McpError(ErrorCode.InvalidParams, 'invalid cursor');
  }
  const resources: Resource[] = [];
  for (let k = at.k, o = at.o; k <= OWNER_KINDS.length; k++, o = 0) {
    const need = LIST_PAGE - resources.length;
    if (k === OWNER_KINDS.length) {
      // after the memory owners: every document's topic tree
      const { items, more } = await listKbResources(env, o, need);
      resources.push(...items);
      if (more) return { resources, nextCursor: cursorOf({ k, o: o + need }) };
      break;
    }
    const kind = OWNER_KINDS[k]!;
    const rows = await listOwners(env.engram.db, env.ctx, kind, o, need + 1);
    for (const r of rows.slice(0, need)) {
      const ref: ResourceRef = {
        type: 'owner',
        kind,
        appId: r.app_id,
        projectId: r.project_id,
        owner: r.owner,
      };
      resources.push({
        uri: formatUri(ref),
        name: `${r.owner} ${kind} (${r.app_id}/${r.project_id})`,
        mimeType: JSON_TYPE,
      });
    }
    if (rows.length > need) {
      return { resources, nextCursor: cursorOf({ k, o: o + need }) };
    }
  }
  return { resources };
}

function pageParam(q: URLSearchParams, name: string, fallback: number): unknown {
  const raw = q.get(name);
  return raw === null ? fallback : Number(raw);
}

/** JSON contents of one resource. */
export async function readResource(env: ToolEnv, uri: string): Promise<string> {
  const kb = parseKbUri(uri);
  if (kb) return bounded(await readKbResource(env, uri, kb));
  const parsed = parseUri(uri);
  if (!parsed) throw new EngramError('NotFound', `no engram resource at ${uri}`);
  const { ref, query } = parsed;
  if (ref.type === 'item') {
    const item = await memoryById(env.engram.db, env.ctx, ref.kind, ref, ref.id);
    if (!item) throw new EngramError('NotFound', `${MEMORY_TYPE[ref.kind]} ${ref.id} not found`);
    return bounded({ uri, memory_type: MEMORY_TYPE[ref.kind], item });
  }
  const ownerField = ref.kind === 'episodes' || ref.kind === 'profile' ? 'user_id' : 'agent_id';
  const input = GetInput.safeParse({
    app_id: ref.appId,
    project_id: ref.projectId,
    memory_type: MEMORY_TYPE[ref.kind],
    [ownerField]: ref.owner,
    page: pageParam(query, 'page', 1),
    page_size: ref.kind === 'profile' ? 1 : pageParam(query, 'page_size', 20),
  });
  if (!input.success) throw fromZod(input.error, ['uri']);
  const data = await env.engram.memory.get(env.ctx, input.data);
  if (ref.kind === 'profile')
    return bounded({ uri, memory_type: 'profile', user_id: ref.owner, profile: data.profiles[0] ?? null });
  const items = [...data.episodes, ...data.agent_cases, ...data.agent_skills];
  const { page, page_size } = input.data;
  const more = page * page_size < data.total_count;
  const next = more ? `${formatUri(ref)}?page=${page + 1}&page_size=${page_size}` : null;
  return bounded({
    uri,
    memory_type: MEMORY_TYPE[ref.kind],
    [ownerField]: ref.owner,
    page,
    page_size,
    total_count: data.total_count,
    next_page: next,
    items,
  });
}

/** Serialises, dropping trailing items past MAX_RESOURCE_CHARS. */
export function bounded(body: Record<string, unknown>): string {
  let text = JSON.stringify(body);
  const items = body['items'];
  if (text.length <= MAX_RESOURCE_CHARS || !Array.isArray(items)) return text;
  const kept = [...items];
  while (kept.length && text.length > MAX_RESOURCE_CHARS) {
    kept.pop();
    text = JSON.stringify({
      ...body,
      items: kept,
      truncated: true,
      note: 'lower page_size to see every item',
    });
  }
  return text;
}
