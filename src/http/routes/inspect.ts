import type { Hono } from 'hono';
import { MessagesData, MessagesQuery, OwnersData, OwnersQuery } from '../../contract/inspect.js';
import { inspectOwners, messagesByIds } from '../../engine/memory/inspect.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/** GET /api/v2/inspect/owners and /api/v2/inspect/messages: what the inspector browses by. */
export function inspectRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: { get(k: 'principal'): { tenantId: string } }) => ({
    tenantId: c.get('principal').tenantId,
  });
  const get = { method: 'get', tag: 'Inspector' } as const;
  operation(
    app,
    {
      ...get,
      path: '/api/v2/inspect/owners',
      operationId: 'listOwners',
      summary: 'Owners (users, agents) holding memories of one kind, per app and project',
      query: OwnersQuery,
      data: OwnersData,
    },
    async (c, { query }) => ({ data: await inspectOwners(engram.db, ctx(c), query) }),
  );
  operation(
    app,
    {
      ...get,
      path: '/api/v2/inspect/messages',
      operationId: 'getMessages',
      summary: "Stored messages by id: a memory's source messages",
      query: MessagesQuery,
      data: MessagesData,
    },
    async (c, { query }) => ({ data: await messagesByIds(engram.db, ctx(c), query.ids) }),
  );
}
