import { describe, expect, it } from 'vitest';
import type { Extraction, SegmentMessage } from '../../src/core/ports.js';
import { OfflineExtractor, PROFILE_CATEGORIES } from '../../src/providers/offline/index.js';
import { builder, T0, travelSegment } from './offline-fixture.js';

const ctx = { humans: ['u_alice', 'u_bob'], agents: ['a_helper'] };
const extract = (segment: SegmentMessage[], c = ctx): Extraction =>
  new OfflineExtractor().extractSync(segment, c);
/** What Rui, the one human of a segment, says in it: one message each. */
const ruiSays = (...contents: string[]): Extraction => {
  const m = builder();
  return extract(
    contents.map((content) => m({ sender_id: 'r', sender_name: 'Rui', role: 'user', content })),
    { humans: ['r'], agents: [] },
  );
};
/** The category and description of each explicit item of an extraction's first profile. */
const itemsOf = (out: Extraction) => out.profiles[0]!.explicit_info.map((e) => [e.category, e.description]);

describe('offline extractor: profiles', () => {
  const { profiles } = extract(travelSegment());

  it('observes the humans only, each item citing their own messages', () => {
    expect(profiles.map((p) => p.user_id)).toEqual(['u_alice', 'u_bob']);
    const segment = travelSegment();
    for (const p of profiles) {
      const own = new Set(segment.filter((m) => m.sender_id === p.user_id).map((m) => m.id));
      for (const item of [...p.explicit_info, ...p.implicit_traits]) {
        expect(item.message_ids.length).toBeGreaterThan(0);
        for (const id of item.message_ids) expect(own.has(id)).toBe(true);
      }
      for (const e of p.explicit_info) expect(PROFILE_CATEGORIES).toContain(e.category);
    }
  });

  it('classifies explicit information into sensible categories', () => {
    const alice = profiles.find((p) => p.user_id === 'u_alice');
    const bob = profiles.find((p) => p.user_id === 'u_bob');
    expect(alice?.explicit_info).toContainEqual({
      category: 'occupation',
      description: 'Alice works as a backend engineer at Acme.',
      message_ids: ['m3'],
    });
    expect(alice?.explicit_info.find((e) => e.category === 'relationship')?.description).toContain(
      'sister Carla',
    );
    expect(bob?.explicit_info).toContainEqual({
      category: 'hobby',
      description: 'Bob loves hiking.',
      message_ids: ['m4'],
    });
    expect(bob?.explicit_info.find((e) => e.category === 'plan')?.description).toBe(
      "Bob is planning a week in the Dolomites in April 2024 with Bob's husband.",
    );
  });

  it('keeps a pastime a person keeps up ("I usually swim three times a week"), not every habit', () => {
    const m = builder();
    const kim = { sender_id: 'k', sender_name: 'Kim', role: 'user' as const };
    const out = extract(
      [
        m({ ...kim, content: 'I usually swim three times a week at the lido.' }),
        m({ ...kim, content: "I've been knitting a lot lately, mostly socks." }),
        m({ ...kim, content: 'I commute forty minutes a day by train.' }),
      ],
      { humans: ['k'], agents: [] },
    );
    expect(out.profiles[0]!.explicit_info.map((e) => [e.category, e.message_ids[0]])).toEqual([
      ['hobby', 'm1'],
      ['hobby', 'm2'],
    ]);
  });

  it('reads "my family plan" as a plan, not a relative', () => {
    const m = builder();
    const kim = { sender_id: 'k', sender_name: 'Kim', role: 'user' as const };
    const out = extract(
      [
        m({
          ...kim,
          content: 'I moved our music to a new service because my family plan got cheaper there.',
        }),
        m({ ...kim, content: 'My family is visiting in June.' }),
      ],
      { humans: ['k'], agents: [] },
    );
    expect(out.profiles[0]!.explicit_info.map((e) => [e.category, e.message_ids[0]])).toEqual([
      ['relationship', 'm2'],
    ]);
  });

  it('keeps where she has been living or just moved, what she teaches, what she trains for, a ban without its request, and her name', () => {
    const m = builder();
    const kim = { sender_id: 'k', sender_name: 'Kim', role: 'user' as const };
    const out = extract(
      [
        m({ ...kim, content: "I've been living in Leeds for three years now." }),
        m({ ...kim, content: 'We just moved into a new flat in Bristol.' }),
        m({ ...kim, content: 'I teach third grade at a small village school.' }),
        m({ ...kim, content: "I'm training for a half marathon in October." }),
        m({ ...kim, content: "I'm lactose intolerant, so no cheese please." }),
        m({ ...kim, content: "Hi! I'm Kim Sato, by the way. I'm in Paris this week." }),
        m({ ...kim, content: 'My new address is 14 Harbour Lane, Whitby.' }),
      ],
      { humans: ['k'], agents: [] },
    );
    expect(itemsOf(out)).toEqual([
      ['location', 'Kim has been living in Leeds for three years now.'],
      ['location', 'Kim and others just moved into a new flat in Bristol.'],
      ['occupation', 'Kim teaches third grade at a small village school.'],
      ['plan', 'Kim is training for a half marathon in October 2024.'],
      ['allergy', 'Kim is lactose intolerant.'],
      // Her name as she gives it; where she is this week is no identity.
      ['identity', 'Kim is Kim Sato.'],
      ['location', "Kim's new address is 14 Harbour Lane, Whitby."],
    ]);
  });

  it('keeps what she says with her "I" left out ("Just got promoted ...", "Thinking of getting a dog ...")', () => {
    const out = ruiSays(
      'Just got promoted to team lead!! How do I run a one-on-one?',
      'Thinking of getting a dog, maybe a corgi.',
      'Used to live in Berlin but moved back to Dublin in 2021.',
    );
    expect(itemsOf(out)).toEqual([
      ['occupation', 'Rui just got promoted to team lead.'],
      ['plan', 'Rui is thinking of getting a dog, maybe a corgi.'],
      ['location', 'Rui used to live in Berlin but moved back to Dublin in 2021.'],
    ]);
  });

  it("keeps a short answer to a question about her by the question's kind ('Any allergies?' 'Just penicillin.')", () => {
    const m = builder();
    const bot = { sender_id: 'b', sender_name: 'Bot', role: 'assistant' as const };
    const rui = { sender_id: 'r', sender_name: 'Rui', role: 'user' as const };
    const out = extract(
      [
        m({ ...rui, content: 'Can you plan my meals for the week?' }),
        m({ ...bot, content: 'Happy to. Do you have any allergies?' }),
        m({ ...rui, content: 'Just penicillin, no food ones.' }),
        m({ ...bot, content: 'Noted. And what is your goal?' }),
        m({ ...rui, content: 'Lose 5 kg before my wedding in August.' }),
        m({ ...bot, content: 'How many people are you cooking for?' }),
        m({ ...rui, content: 'Two.' }),
      ],
      { humans: ['r'], agents: ['b'] },
    );
    const items = itemsOf(out);
    expect(items).toContainEqual([
      'allergy',
      'Asked by Bot "Does Rui have any allergies?", Rui answered: just penicillin, no food ones.',
    ]);
    expect(items.map(([c]) => c)).toContain('plan');
    // A question of no kind ("How many people ...?") files nothing.
    expect(items.filter(([, d]) => /answered: two/i.test(d as string))).toEqual([]);
  });

  it('keeps a job started, a wedding ahead, a baby due, volunteering, quitting smoking and surgery', () => {
    const out = ruiSays(
      'I started the new job two months ago and I still feel lost.',
      "We've been together since 2019 and we are finally getting married!",
      'The baby is due on the 3rd of June.',
      'Every Tuesday I volunteer at the food bank.',
      'I quit smoking 6 months ago and I am still craving.',
      'I had surgery on my knee in February.',
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual([
      'occupation',
      'relationship',
      'relationship',
      'hobby',
      'health',
      'health',
    ]);
  });

  it('keeps a condition she has, said as what she is or what she has', () => {
    const out = ruiSays(
      "FYI: I'm colorblind, so please don't use red and green in charts.",
      'I have ADHD and I lose track of time.',
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual(['health', 'health']);
  });

  it('keeps a liking whose next clause says "it", a practice named by its noun, a first race and a race by its name', () => {
    const out = ruiSays(
      'I hate coriander, it tastes like soap to me.',
      "I've been doing yoga three times a week since March.",
      'I ran my first half marathon on Sunday in 2:05!',
      // a liking of "it" alone still says nothing
      'I love it, thanks.',
      'I ran the Berlin marathon in 3:52, my personal best.',
    );
    expect(itemsOf(out)).toEqual([
      ['preference', 'Rui hates coriander.'],
      ['hobby', 'Rui has been doing yoga three times a week since March 2024.'],
      ['hobby', expect.stringMatching(/^Rui ran their first half marathon on Sunday/)],
      ['hobby', "Rui ran the Berlin marathon in 3:52, Rui's personal best."],
    ]);
  });

  it('keeps a class of a pastime she goes to and what "as someone who\'s ..." says of her; not "my college friends" as her education', () => {
    const out = ruiSays(
      "I've been going to a pottery class every Wednesday evening for two months.",
      "As someone who's lactose intolerant, what are good sources of calcium?",
      'As someone with coeliac disease, which beers can I drink?',
      'I just got back from a hiking trip with my college friends, my knees are killing me.',
    );
    expect(itemsOf(out)).toEqual([
      ['hobby', 'Rui has been going to a pottery class every Wednesday evening for two months.'],
      ['allergy', 'Rui is lactose intolerant.'],
      ['health', 'Rui has coeliac disease.'],
    ]);
    expect(out.episode.facts.map((f) => f.content)).toContain(
      "Rui just got back from a hiking trip with Rui's college friends, Rui's knees are killing Rui.",
    );
  });

  it('keeps her birthday and the age she turns, a baby on the way and a job she is about to start', () => {
    const out = ruiSays(
      'My birthday is on the 5th of May.',
      "I'm turning 30 next week.",
      "We just found out we're having a girl!",
      'In two weeks I start my new job at the bakery.',
      // a party is no birthday of hers
      'My birthday party was a lot of fun.',
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual(['identity', 'identity', 'relationship', 'occupation']);
  });

  it('reads a note about her in the third person, as an agent writes it, as hers', () => {
    const out = ruiSays(
      'The user prefers tabs over spaces.',
      'Rui is allergic to sesame.',
      'Prefers short answers without emoji.',
      "User's name is Rui; he works at Acme as a backend engineer.",
      // a word "user" qualifies, and a question, are no note about her
      'User settings are stored in the profile table.',
      'Likes this one or that one?',
    );
    expect(itemsOf(out)).toEqual([
      ['preference', 'Rui prefers tabs over spaces.'],
      ['allergy', 'Rui is allergic to sesame.'],
      ['preference', 'Rui prefers short answers without emoji.'],
      ['identity', expect.stringMatching(/^Rui's name is Rui/)],
      ['occupation', 'Rui works at Acme as a backend engineer.'],
    ]);
  });

  it("keeps where she is moving to, her landlord's and her rent's news, and her symptoms", () => {
    const out = ruiSays(
      "I'm moving to Valencia in the autumn.",
      'We are moving to a bigger flat across town next month.',
      'My landlord is raising the rent by 150 a month from April.',
      'My symptoms so far: headache since Monday, mild fever.',
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual(['location', 'location', 'location', 'health']);
  });

  it('keeps what a correction says, not what it took back ("No wait, ...")', () => {
    const out = ruiSays(
      "Should I check the tyres? I'm driving to my parents' place in Leeds... no wait, my parents live in York now.",
    );
    const told = [
      ...out.episode.facts.map((f) => f.content),
      ...out.profiles.flatMap((p) => p.explicit_info.map((e) => e.description)),
    ].join(' | ');
    expect(told).toContain("Rui's parents live in York now.");
    expect(told).not.toMatch(/Leeds|no wait/i);
    const scratched = ruiSays(
      'My sister Ada lives in Hull. Actually, scratch that — my sister Ada lives in Leeds now.',
    ).episode.facts.map((f) => f.content);
    expect(scratched).toContain("Rui's sister Ada lives in Leeds now.");
    expect(scratched.join(' | ')).not.toMatch(/Hull|scratch/i);
    // "I meant to ..." or a word that only begins like one corrects nothing
    const meant = ruiSays(
      'My sister Ada lives in Hull. I meant to call her on Sunday.',
      'My brother Tom lives in Bath. Correction fluid is on my list.',
    );
    const items = meant.profiles[0]!.explicit_info.map((e) => e.description).join(' | ');
    expect(items).toContain('Hull');
    expect(items).toContain('Bath');
  });

  it('keeps a job told by what she has been doing where ("I\'ve been teaching at ... for nine years")', () => {
    const out = ruiSays(
      "I need a lesson plan on tides for my sixth graders. I've been teaching at Elm Park Middle School for nine years now.",
    );
    expect(itemsOf(out)).toEqual([
      ['occupation', 'Rui has been teaching at Elm Park Middle School for nine years now.'],
    ]);
  });

  it('keeps a job she has been doing ("I\'ve been a product manager ..."), and another clause of a sentence whose liking says only "them"', () => {
    const out = ruiSays(
      "I've been a product manager at a fintech for three years.",
      "Can you suggest a quick dinner? Nothing with mushrooms, I can't stand them, and my son is allergic to tree nuts.",
    );
    expect(itemsOf(out)).toEqual([
      ['occupation', 'Rui has been a product manager at a fintech for three years.'],
      ['relationship', "Rui's son is allergic to tree nuts."],
    ]);
  });

  it('keeps a skill or a language she is learning and volunteering she has taken up as hobbies, not "learning to live with" something', () => {
    const out = ruiSays(
      'Since the spring I have been learning how to sail on the reservoir.',
      "I'm learning Japanese before the trip.",
      "I'm learning to live with the noise upstairs.",
      'I recently started volunteering at the animal shelter on weekends.',
    );
    expect(itemsOf(out)).toEqual([
      ['hobby', 'Since the spring Rui has been learning how to sail on the reservoir.'],
      ['hobby', 'Rui is learning Japanese before the trip.'],
      ['hobby', 'Rui recently started volunteering at the animal shelter on weekends.'],
    ]);
  });

  it('keeps a job said with words between "I work" and "as a ..." as her occupation, not a way of working', () => {
    const out = ruiSays(
      'I work from home three days a week as a UX researcher for a bank.',
      'I work hard as a team player.',
    );
    expect(itemsOf(out)).toEqual([
      ['occupation', 'Rui works from home three days a week as a UX researcher for a bank.'],
    ]);
  });

  it('keeps how she takes her coffee as a preference and her handedness as who she is', () => {
    const out = ruiSays('Remember that I take my coffee black with no sugar.', "Heads up, I'm left-handed.");
    expect(itemsOf(out)).toEqual([
      ['preference', 'Rui takes their coffee black with no sugar.'],
      ['identity', 'Rui is left-handed.'],
    ]);
  });

  it('keeps a food she stopped eating as her diet, not a place she stopped eating at', () => {
    const out = ruiSays(
      'I stopped eating pork after the trip to the farm.',
      "I've quit eating sugar since March.",
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual(['diet', 'diet']);
    expect(itemsOf(ruiSays('I stopped eating at the canteen after the price went up.'))).toEqual([]);
  });

  it('keeps children she has got and a baby tried for as family, and a diet the household keeps as a diet', () => {
    const out = ruiSays(
      "I've got two daughters, Inês who is 9 and Clara who is 5.",
      "We're all vegan at home.",
      "We've been trying for a baby since the spring.",
    );
    expect(itemsOf(out).map(([c]) => c)).toEqual(['relationship', 'diet', 'relationship']);
  });

  it('keeps an occupation said with its qualifiers ("a 41-year-old school nurse") as the occupation', () => {
    const out = ruiSays("For context, I'm a 41-year-old school nurse living in Braga with my husband.");
    expect(out.profiles[0]!.explicit_info.map((e) => e.category)).toEqual(['occupation']);
  });

  it('keeps a diet kept for years, a job said with an adverb or a business of her own, her quiz, and "My husband and I ..." whole', () => {
    const out = ruiSays(
      "I've been vegan for about four years.",
      'I currently work as a baker at a bakery in Porto.',
    );
    expect(itemsOf(out)).toEqual([
      ['diet', 'Rui has been vegan for about four years.'],
      ['occupation', 'Rui currently works as a baker at a bakery in Porto.'],
    ]);
    // Running a business of one's own is an occupation too.
    const own = ruiSays('I run a small bookshop in Braga with my sister.');
    expect(own.profiles[0]!.explicit_info.map((e) => e.category)).toEqual(['occupation']);
    // A grade on one's own quiz is about her studies.
    const quiz = ruiSays('I got a B+ on my last pharmacology quiz, up from a C.');
    expect(quiz.profiles[0]!.explicit_info.map((e) => e.category)).toEqual(['education']);
    // "My husband and I ..." is one clause: its item is not cut to "Rui's husband."
    const pair = ruiSays('My husband and I are celebrating our tenth anniversary in Lisbon.');
    expect(pair.profiles[0]!.explicit_info.map((e) => e.description)).toEqual([
      "Rui's husband and Rui are celebrating Rui's tenth anniversary in Lisbon.",
    ]);
  });

  it('keeps her age said alone, a health measure, her doctor or therapist, a pastime she took up and a baby expected', () => {
    const out = ruiSays(
      "I'm 46 and my blood pressure is 150 over 95.",
      'My physiotherapist, Ana Reis, thinks my knee will heal by June.',
      'I started swimming twice a week at the public pool.',
      "I've been seeing a therapist every other Monday since the winter.",
      "We're expecting our first baby in November!",
    );
    const items = itemsOf(out);
    expect(items).toContainEqual(['identity', 'Rui is 46.']);
    expect(items.filter(([c]) => c === 'health').length).toBe(3);
    expect(items.filter(([c]) => c === 'relationship').map(([, d]) => d)).toContainEqual(
      expect.stringMatching(/expecting their first baby/),
    );
    expect(items).toContainEqual(['hobby', 'Rui started swimming twice a week at the public pool.']);
  });

  it("files a pastime picked up as a hobby past an aside's announcement, and a ride to the hospital under no health", () => {
    const out = ruiSays(
      'random q but i picked up knitting to unwind after my shifts.',
      'My commute to the hospital is only 5 miles.',
      'I was in the hospital for two nights in March.',
    );
    const items = itemsOf(out);
    expect(items).toContainEqual(['hobby', "Rui picked up knitting to unwind after Rui's shifts."]);
    expect(items.filter(([c]) => c === 'health').map(([, d]) => d)).toEqual([
      'Rui was in the hospital for two nights in March 2024.',
    ]);
    expect(out.episode.facts.map((f) => f.content).join(' ')).not.toMatch(/random q/i);
  });

  it("keeps what is said of 'our' pets and home, a job held before, her lead at work, and someone named in passing", () => {
    const out = ruiSays(
      "We'll bring our dog Juniper, she's a two year old collie.",
      'We live in Denver.',
      'I worked three years as a lab tech at a clinic after college.',
      'My tech lead Farah reviews every change.',
      'I want to plan a surprise dinner for my wife Hannah on Friday.',
    );
    const items = itemsOf(out);
    expect(items).toContainEqual(['pet', 'Rui and others will bring their dog Juniper.']);
    expect(items).toContainEqual(['location', 'Rui and others live in Denver.']);
    expect(items).toContainEqual([
      'occupation',
      'Rui worked three years as a lab tech at a clinic after college.',
    ]);
    expect(items).toContainEqual(['work', "Rui's tech lead Farah reviews every change."]);
    // the plan keeps the sentence; the wife's name is an item of its own
    expect(items).toContainEqual(['relationship', "Rui's wife is named Hannah."]);
    expect(items.filter(([c]) => c === 'plan').length).toBe(1);
  });

  it('keeps no plan or liking of an "it" or "them" that says nothing on its own', () => {
    const out = ruiSays(
      'Can you explain compound interest? I want to understand it for my savings.',
      "I'll have Fridays off soon and I'd love to use them to volunteer.",
      'I want to learn Portuguese this year.',
    );
    const plans = out.profiles[0]!.explicit_info.filter((e) => e.category === 'plan').map(
      (e) => e.description,
    );
    expect(plans.some((d) => /Portuguese/.test(d))).toBe(true);
    expect(plans.some((d) => /\b(?:it|them)\b/.test(d))).toBe(false);
  });

  it('skips humans who did not speak and never profiles agents', () => {
    const out = extract(travelSegment(), { humans: ['u_alice', 'u_bob', 'u_absent'], agents: ['a_helper'] });
    expect(out.profiles.map((p) => p.user_id)).toEqual(['u_alice', 'u_bob']);
  });

  it('infers implicit traits from repeated evidence', () => {
    const msg = builder();
    const kim = { sender_id: 'k', sender_name: 'Kim', role: 'user' as const };
    const seg = [
      msg({ ...kim, content: 'How was your weekend? Did you go anywhere?' }),
      msg({ sender_id: 'l', sender_name: 'Lee', role: 'user', content: 'We went to the lake.' }),
      msg({ ...kim, content: 'Which lake? My kids would love a lake trip.' }),
      msg({ sender_id: 'l', sender_name: 'Lee', role: 'user', content: 'Lake Tahoe.' }),
      msg({ ...kim, content: 'Is it far? My family has never been there.' }),
    ];
    const kimProfile = extract(seg, { humans: ['k', 'l'], agents: [] }).profiles.find(
      (p) => p.user_id === 'k',
    );
    const traits = kimProfile?.implicit_traits ?? [];
    expect(traits.find((t) => t.trait === 'curious')?.message_ids).toEqual(['m1', 'm3', 'm5']);
    expect(traits.find((t) => t.trait === 'family-oriented')?.message_ids).toEqual(['m3', 'm5']);
  });
  it('keeps pets, diet, allergies and notes about others, without requests or chat labels', () => {
    const msg = builder();
    const ivo = { sender_id: 'i', sender_name: 'Ivo', role: 'user' as const };
    const bot = { sender_id: 'bot', sender_name: 'Bot', role: 'assistant' as const };
    const seg = [
      msg({ ...ivo, content: 'FYI: I have two cats called Tofu and Mochi.' }),
      msg({ ...bot, content: 'Lovely names! What can I do for you?' }),
      msg({ ...ivo, content: "I'm vegan, so could you skip recipes with eggs?" }),
      msg({ ...ivo, content: "I'm lactose intolerant too." }),
      msg({ ...ivo, content: "Raj's sister lives in Oslo and visits every spring." }),
      msg({ ...bot, content: 'Thanks for letting me know, I will keep that in mind.' }),
    ];
    const out = extract(seg, { humans: ['i'], agents: ['bot'] });
    const items = out.profiles.find((p) => p.user_id === 'i')?.explicit_info ?? [];
    const of = (category: string) =>
      items
        .filter((e) => e.category === category)
        .map((e) => e.description)
        .join(' | ');
    expect(of('pet')).toMatch(/two cats called Tofu and Mochi/);
    expect(of('diet')).toMatch(/vegan/);
    expect(of('diet')).not.toMatch(/could you|eggs/);
    expect(of('allergy')).toMatch(/lactose intolerant/);
    expect(of('relationship')).toMatch(/Raj's sister lives in Oslo/);
    for (const e of items) expect(e.description).not.toMatch(/FYI|could you/);
    expect(out.episode.subject).not.toMatch(/could you|recipes with eggs/i);
    expect(out.episode.subject).toMatch(/Tofu|cats|vegan/);
  });

  it('keeps what an item is about and leaves out the comment trailing it, which the facts keep', () => {
    const msg = builder();
    const noa = { sender_id: 'n', sender_name: 'Noa', role: 'user' as const };
    const seg = [
      msg({
        ...noa,
        content: "I rescued an old dog, his name is Comet and he sleeps all day, it's hilarious.",
      }),
    ];
    const out = extract(seg, { humans: ['n'], agents: [] });
    const pet = out.profiles[0]?.explicit_info.find((e) => e.category === 'pet');
    expect(pet?.description).toBe('Noa rescued an old dog, his name is Comet.');
    expect(out.episode.facts.some((f) => f.content.includes('sleeps all day'))).toBe(true);
  });

  it('keeps a clause about "him" or "her" with the clause it leans on, not as an item of its own', () => {
    const msg = builder();
    const noa = { sender_id: 'n', sender_name: 'Noa', role: 'user' as const };
    const seg = [
      msg({ ...noa, content: 'I got a puppy named Juno, she chewed my slippers already but I adore her.' }),
      msg({ ...noa, content: 'My brother teaches chemistry and I admire him a lot.' }),
    ];
    const items = extract(seg, { humans: ['n'], agents: [] }).profiles[0]?.explicit_info ?? [];
    for (const e of items) expect(e.description).not.toMatch(/^Noa (?:adores her|admires him)/);
    expect(items.find((e) => e.category === 'pet')?.description).toMatch(/puppy named Juno/);
    expect(items.find((e) => e.category === 'relationship')?.description).toMatch(
      /brother teaches chemistry/,
    );
  });
});

describe('offline extractor: cases', () => {
  it('builds one case for the tool-using agent only', () => {
    const seg = travelSegment();
    const idle = { sender_id: 'a_idle', sender_name: 'Idle', role: 'assistant' as const };
    seg.push({
      ...seg[0]!,
      ...idle,
      id: 'm99',
      content: 'I am here if you need me.',
      timestamp: T0 + 99 * 60_000,
    });
    const { cases } = extract(seg, { humans: ctx.humans, agents: ['a_helper', 'a_idle'] });
    expect(cases).toHaveLength(1);
    const c = cases[0]!;
    expect(c.agent_id).toBe('a_helper');
    expect(c.task_intent).toBe('Check the weather in Chamonix for the weekend of 23-24 March 2024');
    expect(c.approach).toContain('1. Called get_weather(city: Chamonix, date: 2024-03-23) -> failed');
    expect(c.approach).toContain('2. Called get_weather(city: Chamonix-Mont-Blanc, FR');
    expect(c.approach).toContain('3. Answered using the results');
    expect(c.key_insight).toMatch(/get_weather failed at first; retrying it with different arguments/);
    expect(c.quality_score).toBeGreaterThan(0.5);
    expect(c.quality_score).toBeLessThanOrEqual(1);
  });

  it('scores lower when the user is dissatisfied', () => {
    const happy = extract(travelSegment()).cases[0]!.quality_score;
    const unhappy = extract(travelSegment("That's wrong, I asked about Chamonix in France.")).cases[0]!
      .quality_score;
    expect(unhappy).toBeLessThan(0.5);
    expect(unhappy).toBeGreaterThanOrEqual(0);
    expect(happy).toBeGreaterThan(unhappy);
  });

  it('gives no case when no agent called a tool', () => {
    const msg = builder();
    const seg = [
      msg({ sender_id: 'u', sender_name: 'Uma', role: 'user', content: 'What is the capital of Peru?' }),
      msg({
        sender_id: 'bot',
        sender_name: 'Bot',
        role: 'assistant',
        content: 'The capital of Peru is Lima.',
      }),
    ];
    expect(extract(seg, { humans: ['u'], agents: ['bot'] }).cases).toEqual([]);
  });
});
