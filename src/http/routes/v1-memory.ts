import type { Context, Hono } from 'hono';
import {
  V1MemoryAddData,
  V1MemoryAddInput,
  V1MemoryFlushData,
  V1MemoryFlushInput,
  V1MemoryGetData,
  V1MemoryGetInput,
  V1MemorySearchData,
  V1MemorySearchInput,
} from '../../contract/v1-memory.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/**
 * The self-hosted v1 memory routes (`/api/v1/memory/*`), for v1 keys: `request_id` +
 * `data` answers, v1 error bodies (src/http/errors.ts), memories in the v1 store.
 */
export function v1MemoryRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: Context<HttpEnv>) => {
    const p = c.get('principal');
    return { tenantId: p.tenantId, keyId: p.keyId };
  };
  const post = { method: 'post', tag: 'Legacy v1 (self-hosted)' } as const;
  const svc = engram.v1SelfHosted;

  operation(
    app,
    {
      ...post,
      path: '/api/v1/memory/add',
      operationId: 'v1AddMemory',
      summary: 'Add messages to a session (v1; processed in the request)',
      body: V1MemoryAddInput,
      data: V1MemoryAddData,
    },
    async (c, { body }) => ({ data: await svc.add(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v1/memory/flush',
      operationId: 'v1FlushMemory',
      summary: "Extract a session's buffered messages now (v1)",
      body: V1MemoryFlushInput,
      data: V1MemoryFlushData,
    },
    async (c, { body }) => ({ data: await svc.flush(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v1/memory/get',
      operationId: 'v1GetMemories',
      summary: "List one owner's memories of one v1 type",
      body: V1MemoryGetInput,
      data: V1MemoryGetData,
    },
    async (c, { body }) => ({ data: await svc.get(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v1/memory/search',
      operationId: 'v1SearchMemories',
      summary: 'Retrieve memories relevant to a query (v1 shapes)',
      body: V1MemorySearchInput,
      data: V1MemorySearchData,
    },
    async (c, { body }) => ({ data: await svc.search(ctx(c), body) }),
  );
}
