import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandQuery } from '../../src/engine/search/expand.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture } from './seed.js';

/** Offline query expansion (src/engine/search/expand.ts): the words appended. */
describe.each(DRIVERS)('offline query expansion [%s]', (driver) => {
  let f: Fixture;
  const scope = { tenantId: 'tenant-a', appId: 'default', projectId: 'default', ownerId: 'nora' };
  beforeAll(async () => {
    f = await openFixture(driver);
  });
  afterAll(async () => {
    await f.database.drop();
  });

  it.each([
    ["[2024-05-08] Nora's vet is Dr O'Brien at the Riverside clinic.", "O'Brien"],
    ['[2024-05-08] Follow-up booked with the dentist.', 'Follow-up'],
  ])('appends a word of several lexemes once (%s)', async (hit, word) => {
    const out = await expandQuery(f.db, scope, 'When is it?', [], [hit]);
    const added = out!.slice('When is it? '.length).split(' ');
    expect(added).toContain(word);
    expect(new Set(added).size).toBe(added.length);
  });
});
