import type { Hono } from 'hono';
import { GetInput } from '../../contract/memory-read.js';
import {
  AddInput,
  DeleteByIdsInput,
  DeleteInput,
  FeedbackInput,
  FlushInput,
  UpdateInput,
} from '../../contract/memory-write.js';
import { SearchInput } from '../../contract/search.js';
import type { Engram } from '../../engram.js';
import type { HttpEnv } from '../app.js';
import { parseBody } from '../body.js';

/** The v2 memory routes: validate with the operation's schema, call the engine, wrap in the envelope. */
export function memoryRoutes(app: Hono<HttpEnv>, engram: Engram): void {
  const ctx = (c: { get(k: 'principal'): { tenantId: string; keyId: string } }) => {
    const p = c.get('principal');
    return { tenantId: p.tenantId, keyId: p.keyId };
  };
  const ok = (c: { get(k: 'requestId'): string }, data: unknown) => ({
    request_id: c.get('requestId'),
    data,
  });

  app.post('/api/v2/memory/add', async (c) => {
    const input = await parseBody(c, AddInput);
    const { httpStatus, data } = await engram.memory.add(ctx(c), input);
    return c.json(ok(c, data), httpStatus);
  });
  app.post('/api/v2/memory/flush', async (c) =>
    c.json(ok(c, await engram.memory.flush(ctx(c), await parseBody(c, FlushInput)))),
  );
  app.post('/api/v2/memory/get', async (c) =>
    c.json(ok(c, await engram.memory.get(ctx(c), await parseBody(c, GetInput)))),
  );
  app.post('/api/v2/memory/search', async (c) =>
    c.json(ok(c, await engram.search.search(ctx(c), await parseBody(c, SearchInput)))),
  );
  app.post('/api/v2/memory/update', async (c) =>
    c.json(ok(c, await engram.memory.update(ctx(c), await parseBody(c, UpdateInput)))),
  );
  app.post('/api/v2/memory/delete', async (c) =>
    c.json(ok(c, await engram.memory.delete(ctx(c), await parseBody(c, DeleteInput)))),
  );
  app.post('/api/v2/memory/delete_by_ids', async (c) =>
    c.json(ok(c, await engram.memory.deleteByIds(ctx(c), await parseBody(c, DeleteByIdsInput)))),
  );
  app.post('/api/v2/memory/feedback', async (c) =>
    c.json(ok(c, await engram.memory.feedback(ctx(c), await parseBody(c, FeedbackInput)))),
  );
}
