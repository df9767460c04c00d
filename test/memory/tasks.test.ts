import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { startTestServer, type TestServer } from '../helpers/engram.js';
import { T0, user } from '../helpers/messages.js';

describe.each(DRIVERS)('tasks endpoints [%s]', (driver) => {
  let s: TestServer;
  let key: string;
  let other: string;
  let taskId: string;
  beforeAll(async () => {
    s = await startTestServer(driver);
    key = await s.key('tenant-a');
    other = await s.key('tenant-b');
    const r = await s.call('POST', '/api/v2/memory/add', {
      key,
      body: { session_id: 't1', async_mode: true, messages: [user('u1', 'hello', T0)] },
    });
    taskId = r.body.data.task_id;
    await s.engram.queue.drain();
  });
  afterAll(() => s.close());

  it('reports a task of the caller only', async () => {
    const r = await s.call('GET', `/api/v2/tasks/${taskId}`, { key });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({
      id: taskId,
      status: 'success',
      task_type: 'memory.process',
      object: 'session',
      object_id: 't1',
    });
    expect(Date.parse(r.body.data.created_at)).not.toBeNaN();
    expect(Date.parse(r.body.data.finished_at)).not.toBeNaN();
    for (const k of [other, key]) {
      const id = k === other ? taskId : 'task_unknown';
      const miss = await s.call('GET', `/api/v2/tasks/${id}`, { key: k });
      expect(miss.status).toBe(404);
      expect(miss.body.error).toMatchObject({ code: 'NotFound', type: 'NotFound' });
    }
  });

  it('counts every status, clamps the window and echoes it', async () => {
    const r = await s.call('GET', '/api/v2/tasks/stats', { key });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.data.by_status).sort()).toEqual([
      'failed',
      'pending',
      'processing',
      'queued',
      'success',
    ]);
    expect(r.body.data.by_status.success).toBeGreaterThanOrEqual(1);
    expect(r.body.data.total).toBe(
      Object.values(r.body.data.by_status).reduce((a: number, b: any) => a + b, 0),
    );
    const wide = await s.call(
      'GET',
      '/api/v2/tasks/stats?start=2000-01-01T00:00:00Z&end=2999-01-01T00:00:00Z',
      { key },
    );
    const span = Date.parse(wide.body.data.end) - Date.parse(wide.body.data.start);
    expect(span).toBeLessThanOrEqual(31 * 86_400_000);
    expect(Date.parse(wide.body.data.end)).toBeLessThanOrEqual(Date.now());
    const empty = await s.call('GET', '/api/v2/tasks/stats', { key: other });
    expect(empty.body.data.total).toBe(0);
    const bad = await s.call('GET', '/api/v2/tasks/stats?start=yesterday', { key });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('InvalidParameter');
  });

  it('lists tasks a page at a time', async () => {
    const r = await s.call('GET', '/api/v2/tasks?page=1&page_size=10&status=success', { key });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ page: 1, page_size: 10 });
    expect(r.body.data.items.map((t: any) => t.id)).toContain(taskId);
    const none = await s.call('GET', '/api/v2/tasks?session_id=nope', { key });
    expect(none.body.data).toMatchObject({ total: 0, items: [] });
    expect((await s.call('GET', '/api/v2/tasks?page_size=500', { key })).status).toBe(422);
  });
});
