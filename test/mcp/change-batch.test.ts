import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ChangeBatch } from '../../src/mcp/change-batch.js';

/**
 * The URIs of changes committed in one turn of the event loop are handed over once per
 * tenant (one outbox statement), after that turn; later changes make a batch of their own.
 */
describe('change batch', () => {
  it('hands over the URIs of one turn once per tenant, without repeats, after the turn', async () => {
    const flushed: [string, string[]][] = [];
    const batch = new ChangeBatch((tenant, uris) => flushed.push([tenant, uris]));
    batch.add('t1', ['engram://a/p/users/ann/episodes', 'engram://a/p/episodes/e1']);
    batch.add('t2', ['engram://a/p/users/bo/profile']);
    batch.add('t1', ['engram://a/p/users/ann/profile', 'engram://a/p/users/ann/episodes']);
    batch.add('t1', []);
    expect(flushed).toEqual([]);
    await nextTurn();
    expect(flushed).toEqual([
      [
        't1',
        ['engram://a/p/users/ann/episodes', 'engram://a/p/episodes/e1', 'engram://a/p/users/ann/profile'],
      ],
      ['t2', ['engram://a/p/users/bo/profile']],
    ]);
    batch.add('t1', ['engram://a/p/episodes/e2']);
    await nextTurn();
    expect(flushed).toHaveLength(3);
    expect(flushed[2]).toEqual(['t1', ['engram://a/p/episodes/e2']]);
  });

  it('schedules nothing for changes that touch no resource', async () => {
    let calls = 0;
    const batch = new ChangeBatch(() => calls++);
    batch.add('t1', []);
    await nextTurn();
    expect(calls).toBe(0);
  });
});
