import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * "Where does she live now?" weighs the facts about living and moving (current-state.ts,
 * newestWins): a newer fact that only holds a word naming the kind in a question ("got home
 * late", "the city marathon") is not of that slot and takes nothing from the move.
 */
describe.each(DRIVERS)('current state: the slot is where one lives, not every "home" [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0,
      subject: 'Zoe in Lisbon',
      facts: ['Zoe lives in Lisbon'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + HOUR,
      subject: 'Zoe moves',
      facts: ['Zoe moved to Porto with her partner'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 2 * HOUR,
      subject: 'a late night',
      facts: ['Zoe got home very late after the jazz concert in the city'],
    });
  });
  afterAll(() => f.database.drop());

  for (const method of ['hybrid', 'keyword'] as const)
    it(`${method}: the move comes first`, async () => {
      const r = await run({ user_id: 'zoe', query: 'Where does Zoe live now?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toBe('Zoe moved to Porto with her partner');
    });

  it('weighs only the facts about whom the question names: the newest move of someone else is no answer', async () => {
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 3 * HOUR,
      subject: 'Theo moves',
      facts: ['Theo moved to Berlin'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 4 * HOUR,
      subject: 'Nora moves',
      facts: ['Nora relocated to Ghent for a new job'],
    });
    for (const method of ['hybrid', 'keyword'] as const) {
      const theo = await run({ user_id: 'zoe', query: 'Where does Theo live now?', method });
      expect(theo.episodes[0]!.atomic_facts[0]!.content, method).toBe('Theo moved to Berlin');
      const zoe = await run({ user_id: 'zoe', query: 'Where does Zoe live now?', method });
      expect(zoe.episodes[0]!.atomic_facts[0]!.content, method).toBe('Zoe moved to Porto with her partner');
    }
  });

  it('"what X do I ... now": the X asked about is the slot, whatever other kind its verb names', async () => {
    // "work" names the job kind, but the question asks about shifts; "drive" is in neither
    // fact about cars. The newest of the facts holding the word asked about wins.
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 5 * HOUR,
      subject: 'a new job',
      facts: ['Zoe took a job as a pharmacist at the clinic and her shifts start at dawn'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 6 * HOUR,
      subject: 'nights',
      facts: ['Zoe switched to night shifts at the hospital'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 7 * HOUR,
      subject: 'mornings',
      facts: ['Zoe drives her old car to the hospital every day'],
    });
    await seedEpisode(f, {
      owners: ['zoe'],
      ts: T0 + 8 * HOUR,
      subject: 'a purchase',
      facts: ['Zoe sold it and bought an electric car'],
    });
    for (const method of ['hybrid', 'keyword'] as const) {
      const shifts = await run({ user_id: 'zoe', query: 'What shifts do I work now?', method });
      expect(shifts.episodes[0]!.atomic_facts[0]!.content, method).toBe(
        'Zoe switched to night shifts at the hospital',
      );
      const car = await run({ user_id: 'zoe', query: 'What car do I drive now?', method });
      expect(car.episodes[0]!.atomic_facts[0]!.content, method).toBe(
        'Zoe sold it and bought an electric car',
      );
      const zoe = await run({ user_id: 'zoe', query: 'Where does Zoe live now?', method });
      expect(zoe.episodes[0]!.atomic_facts[0]!.content, method).toBe('Zoe moved to Porto with her partner');
    }
  });
});
