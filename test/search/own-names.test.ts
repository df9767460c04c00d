import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namesIn, ownThings } from '../../src/engine/search/own-names.js';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

describe('own names: the things a question calls "my X", and the names facts give them', () => {
  it('reads the thing after "my" / "our", past a word that says which one', () => {
    expect(ownThings('Is my cat still alive?')).toEqual(['cat']);
    expect(ownThings("What is my cat's name?")).toEqual(['cat']);
    expect(ownThings('What does my little brother do for a living?')).toEqual(['brother']);
    expect(ownThings('Where did our dog and my sister go?')).toEqual(['dog', 'sister']);
    expect(ownThings('What did I eat yesterday?')).toEqual([]);
  });

  it('finds the name a fact gives the thing, and no word that is no name', () => {
    expect(namesIn("Kim's cat is named Tofu.", 'cat')).toEqual(['Tofu']);
    expect(namesIn("Kim's cat Tofu is twelve and sleeps all day.", 'cat')).toEqual(['Tofu']);
    expect(namesIn("Kim's sister, Wren, lives in Leeds.", 'sister')).toEqual(['Wren']);
    expect(namesIn("Kim's dog is a four-year-old whippet called Nutmeg from a shelter.", 'dog')).toEqual([
      'Nutmeg',
    ]);
    expect(namesIn("User's cat is on a new diet since Monday.", 'cat')).toEqual([]);
    expect(namesIn('Kim took the cat Tofu to the vet.', 'dog')).toEqual([]);
  });
});

/**
 * "Is my cat still alive?" is answered by a later fact that calls the cat by its name alone
 * ("Tofu passed away on Sunday"), among many facts about cats in general that share the
 * question's word: the name the owner's facts give her cat links the two.
 */
describe.each(DRIVERS)(
  'own names: a question about "my X" finds what is told of X by name [%s]',
  (driver) => {
    let f: Fixture;
    const run = searchOf(() => f);
    const first = async (query: string, method: 'keyword' | 'hybrid') =>
      (await run({ user_id: 'kim', query, method })).episodes[0]?.atomic_facts[0]?.content;

    beforeAll(async () => {
      f = await openFixture(driver);
      const seed = (hour: number, subject: string, facts: string[], owners = ['kim']) =>
        seedEpisode(f, { owners, ts: T0 + hour * HOUR, subject, facts });
      await seed(0, 'her cat', ["Kim's cat is named Tofu.", 'Kim bought a scratching post for the cat.']);
      for (let i = 0; i < 6; i++)
        await seed(1 + i, 'cat care', [
          `Kim asked whether a cat that hides all day is a sick cat (${i + 1}).`,
          `Assistant said an older cat often drinks more as its kidneys age (${i + 1}).`,
        ]);
      await seed(10, 'sad news', [
        'Tofu passed away on Sunday, Kim said.',
        'Kim will plant a rose in the yard.',
      ]);
      // someone else's cat of the same name
      await seed(11, 'her cat', ['Ana said her cat Tofu is doing great.'], ['ana']);
    });
    afterAll(() => f.database.drop());

    for (const method of ['keyword', 'hybrid'] as const) {
      it(`${method}: "Is my cat still alive?" finds that Tofu passed away`, async () => {
        expect(await first('Is my cat still alive?', method)).toMatch(/Tofu passed away/);
      });
      it(`${method}: a question about no thing of hers is answered as before`, async () => {
        expect(await first('Does a cat that hides all day need a vet?', method)).toMatch(/hides all day/);
      });
    }
  },
);
