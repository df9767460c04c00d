import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import { TaskItem } from '../../contract/records.js';
import { TaskIdInput } from '../../contract/tasks.js';
import {
  V1AddInput,
  V1DeleteInput,
  V1FlushInput,
  V1GetInput,
  V1Group,
  V1GroupAddInput,
  V1GroupPath,
  V1SearchInput,
  V1Sender,
  V1SenderPatch,
  V1SenderPath,
} from '../../contract/v1.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { parseBody } from '../body.js';
import { operation } from './operation.js';

/**
 * The legacy v1 (Cloud) routes, for v1 keys only (the auth layer answers 403 to a v2
 * key). Memories answer the v1 envelope `status` / `message` / `result`; delete answers
 * 204; senders, groups and tasks answer `data`. Errors take the v1 body (src/http/errors.ts).
 */
export function v1Routes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: Context<HttpEnv>) => {
    const p = c.get('principal');
    return { tenantId: p.tenantId, keyId: p.keyId };
  };
  const memories = <S extends z.ZodType>(
    path: string,
    schema: S,
    run: (c: Context<HttpEnv>, body: z.output<S>) => Promise<object>,
  ) =>
    app.post(`/api/v1/memories${path}`, async (c) => {
      const result = await run(c, await parseBody(c, schema));
      return c.json({ status: 'ok', message: '', result });
    });

  memories('', V1AddInput, (c, b) => engram.v1.add(ctx(c), b, 'user'));
  memories('/agent', V1AddInput, (c, b) => engram.v1.add(ctx(c), b, 'assistant'));
  memories('/group', V1GroupAddInput, (c, b) => engram.v1.add(ctx(c), b, 'user'));
  memories('/flush', V1FlushInput, (c, b) => engram.v1.flush(ctx(c), b.group_id));
  memories('/get', V1GetInput, (c, b) => engram.v1.get(ctx(c), b));
  memories('/search', V1SearchInput, (c, b) => engram.v1.search(ctx(c), b));
  app.post('/api/v1/memories/delete', async (c) => {
    await engram.v1.delete(ctx(c), await parseBody(c, V1DeleteInput));
    return c.body(null, 204);
  });

  const legacy = { tag: 'Legacy v1' } as const;
  operation(
    app,
    {
      ...legacy,
      method: 'patch',
      path: '/api/v1/senders/:sender_id',
      operationId: 'v1PatchSender',
      summary: 'Rename a v1 sender (use sender_name on each v2 message instead)',
      params: V1SenderPath,
      body: V1SenderPatch,
      data: V1Sender,
    },
    async (c, { params, body }) => ({
      data: await engram.v1.patchSender(ctx(c), params.sender_id, body.name),
    }),
  );
  operation(
    app,
    {
      ...legacy,
      method: 'get',
      path: '/api/v1/groups/:group_id',
      operationId: 'v1GetGroup',
      summary: 'A v1 group (a v2 session)',
      params: V1GroupPath,
      data: V1Group,
    },
    async (c, { params }) => ({ data: await engram.v1.group(ctx(c), params.group_id) }),
  );
  operation(
    app,
    {
      ...legacy,
      method: 'get',
      path: '/api/v1/tasks/:task_id',
      operationId: 'v1GetTaskStatus',
      summary: 'Status of one background task (alias of GET /api/v2/tasks/{task_id})',
      params: TaskIdInput,
      data: TaskItem,
    },
    async (c, { params }) => ({ data: await engram.tasks.get(ctx(c).tenantId, params.task_id) }),
  );
}
