import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRIVERS } from '../helpers/drivers.js';
import { type Fixture, HOUR, openFixture, searchOf, seedEpisode, T0 } from './seed.js';

/**
 * A question names a kind while the memory names an instance (lexicon.ts KINDS):
 * - a name asked for ("What is my cat's name?") while the memory says what something is
 *   called ("a cat called Biscuit"): the english stemmer joins "name" and "named" only;
 * - a job asked about ("What is my job title?") while the memory tells a promotion;
 * - a word for the same thing (SAME): "my father" asked, "my dad" told; a wedding, "got
 *   married"; a dog, a puppy;
 * - a meal or a diet asked for brings what one does not eat ("dietary restrictions", lactose); a book asked about, a novel; an
 *   instrument, a guitar; a degree, a master's; what one earns, a salary; a room, the kitchen;
 *   a season, its months; a pet, her fish; an exam, that she passed; a race, a half marathon;
 *   grandchildren, a grandson; a doctor, the GP; medication, tablets; plants, a pothos.
 */
describe.each(DRIVERS)('a kind asked about finds its instance [%s]', (driver) => {
  let f: Fixture;
  const run = searchOf(() => f);

  beforeAll(async () => {
    f = await openFixture(driver);
    await seedEpisode(f, {
      owners: ['ida'],
      ts: T0,
      subject: 'a weekend away',
      facts: ['Ida adopted a shy orange cat called Biscuit in May.'],
    });
    // shorter, so each ranks first on the question's own words alone
    await seedEpisode(f, {
      owners: ['ida'],
      ts: T0 + HOUR,
      subject: 'a neighbour',
      facts: ["Ida feeds her neighbour's cat."],
    });
    await seedEpisode(f, {
      owners: ['ida'],
      ts: T0 + 2 * HOUR,
      subject: 'a party',
      facts: ['Ida printed name cards for the party.'],
    });
    await seedEpisode(f, {
      owners: ['ida'],
      ts: T0 + 3 * HOUR,
      subject: 'a wine',
      facts: ['Ida forgot the name of the red wine.'],
    });
    await seedEpisode(f, {
      owners: ['ida'],
      ts: T0 + 4 * HOUR,
      subject: 'good news',
      facts: ['Ida was promoted to senior designer in March.'],
    });
    // One fact an episode, an hour apart.
    const seedFacts = async (owner: string, fromHour: number, facts: string[]) => {
      for (const [i, fact] of facts.entries())
        await seedEpisode(f, {
          owners: [owner],
          ts: T0 + (fromHour + i) * HOUR,
          subject: `a talk ${fromHour + i}`,
          facts: [fact],
        });
    };
    // "job" is in many memories, as it is in a long one's
    await seedFacts('ida', 5, [
      'Ida helped Tom with a job.',
      "Ida's sister has a new job in Oslo.",
      'Ida hates job interviews.',
    ]);
    // another owner's: "lives" in each, the shorter ones rank first on the question's own words alone
    await seedFacts('noor', 10, [
      "Noor's dad lives in a cottage by the sea.",
      "Noor's neighbour lives upstairs.",
      'Noor lives near the park.',
      'Noor has a cousin in Leeds.',
      "Noor's cousin got married in a barn in Vermont.",
      "Noor's neighbour is very old.",
      "Noor's puppy Rolo is four months old.",
    ]);
    // a third owner's
    await seedFacts('lena', 20, [
      'Lena is allergic to sesame.',
      "Lena's favourite novel is a story of the sea.",
      'Lena bought a lamp for the hall.',
      'Lena plays the ukulele in a folk band with friends.',
      "Lena finished her master's in statistics last summer.",
      'Lena said her salary is 4,100 a month after tax.',
      'Lena saw a play at the theatre.',
    ]);
    await seedFacts('rui', 30, [
      'Rui cooked dinner for his friends on Friday.',
      'Rui is lactose intolerant, so he skips cheese.',
      'Rui ate at a new ramen place downtown.',
    ]);
    await seedFacts('tess', 40, [
      'Tess cooked a vegetable lasagne for the team.',
      'Tess has been pescatarian since March.',
    ]);
    // the portrait, shorter, ranks first on the question's own words alone
    await seedFacts('vera', 50, ['Vera painted the kitchen dark blue.', 'Vera painted a portrait.']);
    await seedFacts('ana', 70, [
      'Ana put six neon tetras in the new tank.',
      'Ana passed the N5 on her first try.',
      'Ana ran her first half marathon in 2:05.',
      'Ana watched a film about the history of space travel.',
      'Ana sat a language exam on Saturday morning.',
    ]);
    await seedFacts('ray', 80, [
      "Ray's grandson Felix is mad about trains.",
      "Ray's granddaughter Isla loves drawing.",
      'Ray turned a bowl from cherry wood.',
      'Ray saw the GP on Friday about his ankles.',
      'Ray takes two tablets of losartan every morning.',
      'Ray watched a film on Friday with Joan.',
      'Ray bought a pothos and two ferns at the market.',
      // shorter, so it ranks first on the question's own words alone
      'Ray bought a drill.',
    ]);
    await seedFacts('omar', 60, [
      'Omar drove to the Alps with the kids in July 2025.',
      'Omar went to the dentist for a filling.',
      'Omar and the kids went skating in January.',
    ]);
  });
  afterAll(() => f.database.drop());

  for (const method of ['keyword', 'hybrid'] as const) {
    it(`${method}: "What is my cat's name?" finds the cat called Biscuit`, async () => {
      const r = await run({ user_id: 'ida', query: "What is my cat's name?", method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/cat called Biscuit/);
    });
    it(`${method}: "What is my job title?" finds the promotion`, async () => {
      const r = await run({ user_id: 'ida', query: 'What is my job title?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/promoted to senior designer/);
    });
    it(`${method}: a meal asked for finds what she cannot eat; a book asked about, her novel`, async () => {
      const meal = await run({ user_id: 'lena', query: 'Can you suggest a lunch recipe for me?', method });
      expect(meal.episodes.map((e) => e.atomic_facts[0]!.content)).toContain('Lena is allergic to sesame.');
      const book = await run({ user_id: 'lena', query: 'What books does Lena like?', method });
      expect(book.episodes[0]!.atomic_facts[0]!.content).toMatch(/favourite novel/);
    });
    it(`${method}: "Do I have any dietary restrictions?" finds that he is lactose intolerant`, async () => {
      const r = await run({ user_id: 'rui', query: 'Do I have any dietary restrictions?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/lactose intolerant/);
    });
    it(`${method}: "Am I vegetarian?" finds the diet she told, pescatarian`, async () => {
      const r = await run({ user_id: 'tess', query: 'Am I vegetarian?', method });
      const told = r.episodes.find((e) => /pescatarian since March/.test(e.atomic_facts[0]!.content));
      // By hybrid "a vegetable lasagne" is nearer in meaning; the diet she told now scores too.
      expect(told).toBeDefined();
      if (method === 'keyword') expect(r.episodes[0]).toBe(told);
      else expect(told?.score).toBeGreaterThan(0);
    });
    it(`${method}: "Which instrument do I play?" finds the ukulele she plays`, async () => {
      const r = await run({ user_id: 'lena', query: 'Which instrument do I play?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/plays the ukulele/);
    });
    it(`${method}: a degree asked about finds her master's; what she earns, her salary`, async () => {
      const degree = await run({ user_id: 'lena', query: 'What degree do I have?', method });
      expect(degree.episodes[0]!.atomic_facts[0]!.content).toMatch(/master's in statistics/);
      const earn = await run({ user_id: 'lena', query: 'How much do I earn?', method });
      expect(earn.episodes[0]!.atomic_facts[0]!.content).toMatch(/salary is 4,100/);
    });
    it(`${method}: a wedding asked about finds a marriage; a dog, a puppy`, async () => {
      const wedding = await run({ user_id: 'noor', query: "Where was my cousin's wedding?", method });
      expect(wedding.episodes[0]!.atomic_facts[0]!.content).toMatch(/got married in a barn/);
      const dog = await run({ user_id: 'noor', query: 'How old is my dog?', method });
      expect(dog.episodes[0]!.atomic_facts[0]!.content).toMatch(/puppy Rolo/);
    });
    it(`${method}: "Which rooms did I paint?" finds the kitchen she painted`, async () => {
      const r = await run({ user_id: 'vera', query: 'Which rooms did I paint?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/painted the kitchen/);
    });
    it(`${method}: a pet asked about finds her fish; an exam's result, that she passed; a race, her half marathon`, async () => {
      const pets = await run({ user_id: 'ana', query: 'What pets do I have?', method });
      expect(pets.episodes[0]!.atomic_facts[0]!.content).toMatch(/neon tetras/);
      const exam = await run({ user_id: 'ana', query: 'What was the result of my exam?', method });
      expect(exam.episodes.slice(0, 2).map((e) => e.atomic_facts[0]!.content)).toContainEqual(
        expect.stringMatching(/passed the N5/),
      );
      const races = await run({ user_id: 'ana', query: 'Which races have I run?', method });
      expect(races.episodes[0]!.atomic_facts[0]!.content).toMatch(/half marathon/);
    });
    it(`${method}: grandchildren asked about find his grandson and granddaughter; a doctor, his GP; medication, his tablets`, async () => {
      const grandchildren = await run({ user_id: 'ray', query: 'How many grandchildren do I have?', method });
      expect(
        grandchildren.episodes
          .slice(0, 2)
          .map((e) => e.atomic_facts[0]!.content)
          .sort(),
      ).toEqual(["Ray's granddaughter Isla loves drawing.", "Ray's grandson Felix is mad about trains."]);
      const doctor = await run({ user_id: 'ray', query: 'When did I last see my doctor?', method });
      expect(doctor.episodes[0]!.atomic_facts[0]!.content).toMatch(/saw the GP/);
      const medication = await run({ user_id: 'ray', query: 'What medication am I on?', method });
      expect(medication.episodes[0]!.atomic_facts[0]!.content).toMatch(/tablets of losartan/);
    });
    it(`${method}: plants asked about find the pothos and the ferns`, async () => {
      const plants = await run({ user_id: 'ray', query: 'Which plants did I buy?', method });
      expect(plants.episodes[0]!.atomic_facts[0]!.content).toMatch(/pothos and two ferns/);
    });
    it(`${method}: a season asked about finds what its months hold`, async () => {
      const summer = await run({ user_id: 'omar', query: 'Where did we go in the summer?', method });
      expect(summer.episodes[0]!.atomic_facts[0]!.content).toMatch(/Alps .* July/);
      const winter = await run({ user_id: 'omar', query: 'What did the kids do last winter?', method });
      expect(winter.episodes[0]!.atomic_facts[0]!.content).toMatch(/skating in January/);
    });
    it(`${method}: "Where does my father live?" finds where her dad lives`, async () => {
      const r = await run({ user_id: 'noor', query: 'Where does my father live?', method });
      expect(r.episodes[0]!.atomic_facts[0]!.content).toMatch(/dad lives in a cottage/);
    });
  }
});
