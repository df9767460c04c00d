import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandTerms } from '../../src/engine/search/lexicon.js';
import type { SearchScope } from '../../src/engine/search/scope.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, openFixture, planLines, recording, seedEpisode } from './seed.js';

/**
 * Stem bridges (src/engine/search/lexicon.ts expandTerms): the owner's stored lexemes that
 * start with a query lexeme's root, whatever letter follows the root.
 */
describe.each(DRIVERS)('stem bridges [%s]', (driver) => {
  let f: Fixture;
  const scope: SearchScope = {
    tenantId: 'tenant-a',
    appId: 'default',
    projectId: 'default',
    ownerId: 'nora',
    filters: undefined,
  };
  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['nora'],
      subject: 'plans',
      facts: [
        'Nora and her fiancé Marc booked a cooking class in Lyon.',
        'Chloé lent Nora her tent for the trip.',
      ],
    });
  });
  afterAll(async () => {
    await f.database.drop();
  });

  it('offers a stored lexeme with an accented letter after the root, read by an index range', async () => {
    const r = recording(f.db);
    // "fiance" -> fianc (root fianc), "Chloe" -> chloe (root chlo)
    expect(await expandTerms(r.db, scope, ['fianc', 'chloe'])).toEqual(['chloé', 'fiancé']);
    const read = r.sent.find((s) => s.text.includes('search_counts'))!;
    const plan = (await planLines(f.db, read.text, read.params, 'COSTS OFF')).join('\n');
    expect(plan).toMatch(/Index Cond: .*\(term >= r\.root\) AND \(term <= \(r\.root \|\| /);
  });

  it('bridges an irregular plural and its singular, either way asked', async () => {
    // "knives" -> knive, "knife" -> knife; "women" / "woman": the stemmer keeps them apart.
    expect(await expandTerms(f.db, scope, ['knive'])).toContain('knife');
    expect(await expandTerms(f.db, scope, ['knife'])).toContain('knive');
    expect(await expandTerms(f.db, scope, ['women'])).toContain('woman');
  });

  it('adds the words an amount paid is told with to a question asking one, and to no other', async () => {
    const asked = await expandTerms(f.db, scope, ['spend', 'knive'], 'How much did I spend on knives?');
    expect(asked).toEqual(expect.arrayContaining(['dollar', 'euro', 'bought', 'paid']));
    expect(await expandTerms(f.db, scope, ['cost', 'repair'], 'What did the repair cost?')).toContain(
      'dollar',
    );
    // "spend" of time asks no amount.
    expect(
      await expandTerms(f.db, scope, ['spend', 'weekend'], 'How did she spend the weekend?'),
    ).not.toContain('dollar');
  });
});
