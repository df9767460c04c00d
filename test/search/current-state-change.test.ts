import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, seedMessage, T0 } from './seed.js';

/**
 * A question about how things are now is answered by a later change of a thing its best
 * answer's episode names, though the change shares no word with the question
 * (current-state.ts changedSince): "we use Drizzle as the ORM", later "we switched from
 * Drizzle to Kysely", asked "Which ORM do we use now?".
 */
describe.each(DRIVERS)('current state: a later change of what the answer names [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);
  const first = async (query: string, method: 'keyword' | 'hybrid', user_id = 'rui') =>
    (await run({ user_id, query, method })).episodes[0]?.atomic_facts[0]?.content;

  beforeAll(async () => {
    f = await openFixture(driver);
    const seed = (owner: string, hour: number, subject: string, facts: string[]) =>
      seedEpisode(f, { owners: [owner], ts: T0 + hour * HOUR, subject, facts });
    await seed('rui', 0, 'a new service', ['Rui uses Drizzle as the ORM for the billing service.']);
    await seed('rui', 1, 'to-do lists', [
      'Rui has been using Notion for his to-do lists.',
      'Rui is thinking of switching to Todoist.',
    ]);
    // a change of nothing the answers name
    await seed('rui', 2, 'desks', ['Rui switched desks with a colleague.']);
    await seed('rui', 3, 'a migration', ['Rui and the team switched from Drizzle to Kysely this week.']);
    await seed('rui', 4, 'tasks', ['Rui finally moved all his tasks to Todoist.']);
    // another owner's change of the same thing
    await seed('ana', 5, 'her tools', ['Ana replaced Kysely with Drizzle again.']);
    // an end told without the question's words
    await seed('rui', 6, 'his dog', ['Rui has a beagle named Pretzel.', 'Rui walks the beagle twice a day.']);
    await seed('rui', 7, 'sad news', ['Pretzel passed away last night, Rui said.']);
    // The speakers' own names are no thing that changes: neither an owner's id ("rui") nor the
    // name a sender gave ("Mira", owner "u-41") named in the middle of a sentence.
    await seed('rui', 8, 'teaching', ['Rui teaches Spanish at the college, so Rui leaves work early.']);
    await seed('rui', 9, 'family', ["Rui's brother moved to Toronto for a new job."]);
    const told = await seedMessage(f, {
      session: 's1',
      sender: 'u-41',
      name: 'Mira',
      content: 'I coach the rowing team, so I leave work early.',
      state: 'extracted',
    });
    await seedEpisode(f, {
      owners: ['u-41'],
      ts: T0 + 10 * HOUR,
      subject: 'coaching',
      facts: ['Mira coaches the rowing team, so Mira leaves work early.'],
      sources: [told],
    });
    await seed('u-41', 11, 'family', ["Mira's sister moved to Lyon for a new job."]);
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const) {
    it(`${method}: "Which ORM do we use now?" finds the switch to Kysely`, async () => {
      expect(await first('Which ORM do we use now?', method)).toMatch(/switched from Drizzle to Kysely/);
    });
    it(`${method}: "What app do I use for my to-do lists now?" finds the move to Todoist`, async () => {
      expect(await first('What app do I use for my to-do lists now?', method)).toMatch(/moved all his tasks/);
    });
    it(`${method}: "Is my beagle still alive?" finds that Pretzel passed away`, async () => {
      expect(await first('Is my beagle still alive?', method)).toMatch(/Pretzel passed away/);
    });
    it(`${method}: a later change of the owner named by her id is no change of the answer`, async () => {
      expect(await first('What do I teach now?', method)).toMatch(/teaches Spanish/);
    });
    it(`${method}: a later change of the sender by the name she gave is no change of the answer`, async () => {
      expect(await first('What team do I coach now?', method, 'u-41')).toMatch(/coaches the rowing team/);
    });
    it(`${method}: a question not about now keeps its best answer`, async () => {
      expect(await first('Which ORM did we pick for the billing service?', method)).toMatch(
        /uses Drizzle as the ORM/,
      );
    });
  }
});
