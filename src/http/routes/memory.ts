import type { Hono } from 'hono';
import { GetData, GetInput } from '../../contract/memory-read.js';
import {
  AddData,
  AddInput,
  DeleteByIdsData,
  DeleteByIdsInput,
  DeleteData,
  DeleteInput,
  FeedbackData,
  FeedbackInput,
  FlushData,
  FlushInput,
  UpdateData,
  UpdateInput,
} from '../../contract/memory-write.js';
import { SearchData, SearchInput } from '../../contract/search.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { operation } from './operation.js';

/** The v2 memory routes: validate with the operation's schema, call the engine, wrap in the envelope. */
export function memoryRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: { get(k: 'principal'): { tenantId: string; keyId: string } }) => {
    const p = c.get('principal');
    return { tenantId: p.tenantId, keyId: p.keyId };
  };
  const post = { method: 'post', tag: 'Memory' } as const;

  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/add',
      operationId: 'addMemory',
      summary: 'Add messages to a session',
      description:
        'Append 1-500 messages to a session; they are stored before the answer. async_mode false ' +
        '(default): processed in the request, 200. async_mode true: 202 with a task_id.',
      body: AddInput,
      data: AddData,
      statuses: [200, 202],
    },
    async (c, { body }) => {
      const { httpStatus, data } = await engram.memory.add(ctx(c), body);
      return { data, status: httpStatus };
    },
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/flush',
      operationId: 'flushMemory',
      summary: "Extract a session's buffered messages now",
      body: FlushInput,
      data: FlushData,
    },
    async (c, { body }) => ({ data: await engram.memory.flush(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/get',
      operationId: 'getMemories',
      summary: "List one owner's memories of one type",
      body: GetInput,
      data: GetData,
    },
    async (c, { body }) => ({ data: await engram.memory.get(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/search',
      operationId: 'searchMemories',
      summary: 'Retrieve memories relevant to a query',
      body: SearchInput,
      data: SearchData,
    },
    async (c, { body }) => ({ data: await engram.search.search(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/update',
      operationId: 'updateMemory',
      summary: "Rewrite an episode's narrative, summary or subject",
      body: UpdateInput,
      data: UpdateData,
    },
    async (c, { body }) => ({ data: await engram.memory.update(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/delete',
      operationId: 'deleteMemories',
      summary: 'Delete memories by owner and/or session',
      body: DeleteInput,
      data: DeleteData,
    },
    async (c, { body }) => ({ data: await engram.memory.delete(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/delete_by_ids',
      operationId: 'deleteMemoriesByIds',
      summary: 'Delete episodes by id',
      body: DeleteByIdsInput,
      data: DeleteByIdsData,
    },
    async (c, { body }) => ({ data: await engram.memory.deleteByIds(ctx(c), body) }),
  );
  operation(
    app,
    {
      ...post,
      path: '/api/v2/memory/feedback',
      operationId: 'memoryFeedback',
      summary: 'Store a rating signal about one memory',
      body: FeedbackInput,
      data: FeedbackData,
    },
    async (c, { body }) => ({ data: await engram.memory.feedback(ctx(c), body) }),
  );
}
