import { describe, expect, it } from 'vitest';
import { formatDate, mentionsDate, resolveRelativeDates, withYears } from '../../src/core/dates.js';
import { stripInterjections } from '../../src/providers/offline/analyze.js';
import { keyPhrases } from '../../src/providers/offline/keyphrases.js';
import { conjugate, toThirdPerson } from '../../src/providers/offline/rewrite.js';
import { chatSpelling } from '../../src/providers/offline/spelling.js';
import {
  contentStems,
  markQuestion,
  splitSentences,
  stem,
  tokenize,
  truncate,
  unshout,
} from '../../src/providers/offline/text.js';

/** 8 May 2023 (a Monday), 13:56 UTC. */
const MAY_8 = Date.UTC(2023, 4, 8, 13, 56);
/** 25 May 2023 (a Thursday). */
const MAY_25 = Date.UTC(2023, 4, 25, 13, 14);

describe('offline text: sentences and tokens', () => {
  it('splits sentences on terminal punctuation and line breaks, not on abbreviations or decimals', () => {
    expect(splitSentences('Hey Tom! I met Dr. Smith at 3.30 today. Was it fun?\nYes')).toEqual([
      'Hey Tom!',
      'I met Dr. Smith at 3.30 today.',
      'Was it fun?',
      'Yes',
    ]);
    expect(splitSentences('   ')).toEqual([]);
    // The unit of an amount is no initial: "$71k." and "10K." end their sentences.
    expect(splitSentences('I make about $71k. Should we save more? I ran 10K. Ask J. Smith.')).toEqual([
      'I make about $71k.',
      'Should we save more?',
      'I ran 10K.',
      'Ask J. Smith.',
    ]);
    // A pause's dots before a word in lower case end no sentence; before a capital they do.
    expect(splitSentences('My aunt is moving in with us, which is... a lot. Well... We will see.')).toEqual([
      'My aunt is moving in with us, which is... a lot.',
      'Well...',
      'We will see.',
    ]);
    // The minutes of a time are no inline list's number ("options: 1. Soup. 2. Rice.").
    expect(splitSentences('I coach from 5 to 6:30. Options: 1. Soup. 2. Rice.')).toEqual([
      'I coach from 5 to 6:30.',
      'Options:',
      'Soup.',
      'Rice.',
    ]);
    // A quotation's own mark ends no sentence when the sentence goes on after it.
    expect(splitSentences('Translate \'how much is this?\' into Greek. She said "Done!" Then left.')).toEqual(
      ["Translate 'how much is this?' into Greek.", 'She said "Done!"', 'Then left.'],
    );
  });

  it('puts a sentence typed in capitals in sentence case, keeping acronyms without a vowel', () => {
    expect(unshout('PASSED MY CPN EXAM TODAY!!!')).toBe('Passed my CPN exam today!!!');
    expect(unshout('WE WON THE FINAL')).toBe('We won the final');
    // not shouting: a few acronyms in a sentence of lower case, or two words
    expect(unshout('I moved from the USA to the UK in May.')).toBe('I moved from the USA to the UK in May.');
    expect(unshout('OMG YES')).toBe('OMG YES');
    // Code is written in capitals, not shouted: a query keeps its keywords.
    expect(unshout("SELECT * FROM orders WHERE state = 'open' ORDER BY created_at DESC LIMIT 20")).toBe(
      "SELECT * FROM orders WHERE state = 'open' ORDER BY created_at DESC LIMIT 20",
    );
    expect(unshout('MAX_RETRIES AND TIMEOUT_MS ARE BOTH UNSET')).toBe(
      'MAX_RETRIES AND TIMEOUT_MS ARE BOTH UNSET',
    );
  });

  it('marks a question typed without its question mark', () => {
    expect(markQuestion('how do i descale a kettle')).toBe('how do i descale a kettle?');
    expect(markQuestion("what's a good name for a goldfish")).toBe("what's a good name for a goldfish?");
    expect(markQuestion('can you check my cover letter')).toBe('can you check my cover letter?');
    expect(markQuestion('What a week.')).toBe('What a week.');
    expect(markQuestion('what a week')).toBe('what a week');
    expect(markQuestion('I wonder how do people cope')).toBe('I wonder how do people cope');
    // a question left unmarked after a statement
    expect(markQuestion("i'm gluten free now, what breakfast can i make")).toBe(
      "i'm gluten free now, what breakfast can i make?",
    );
    expect(markQuestion("we're off to Rome, which I love")).toBe("we're off to Rome, which I love");
  });

  it("writes out a person's chat spelling: contractions without their apostrophe, chat forms, lowercase months and weekdays", () => {
    expect(chatSpelling('im training for a marathon in september and i dont know whats a good pace')).toBe(
      "I'm training for a marathon in September and i don't know what's a good pace",
    );
    expect(chatSpelling('Dont worry, can u send it thursday pls')).toBe(
      "Don't worry, can you send it Thursday please",
    );
    // "its", "id", "ill" by the word after them
    expect(
      chatSpelling('its going to cost 420 and its tail is fine, id love to go, ill be there with an ill cat'),
    ).toBe("it's going to cost 420 and its tail is fine, I'd love to go, I'll be there with an ill cat");
    // other words, capitals and a word's own apostrophe stay
    expect(
      chatSpelling(
        "its ill-timed, we were well, it may rain as we march to an august hall; IM and U2 and rock'n'roll, 10 u",
      ),
    ).toBe(
      "its ill-timed, we were well, it may rain as we march to an august hall; IM and U2 and rock'n'roll, 10 u",
    );
    // "may", "march" and "august" after a word that takes a month are the month
    expect(chatSpelling('going on safari in august, back since may, moving early march')).toBe(
      'going on safari in August, back since May, moving early March',
    );
  });

  it('tokenises with straightened apostrophes and stems lightly', () => {
    expect(tokenize('I’m cooking A+ dumplings!')).toEqual(["i'm", 'cooking', 'a+', 'dumplings']);
    expect(stem('cooking')).toBe(stem('cooks'));
    expect(stem('cooked')).toBe(stem('cook'));
    expect(stem('agencies')).toBe('agency');
    expect(contentStems('The kids are so excited about the sailing trip')).toEqual([
      'kid',
      'excit',
      'sail',
      'trip',
    ]);
  });

  it('truncates at a word boundary within the limit', () => {
    const out = truncate('one two three four five six seven', 20);
    expect(out.length).toBeLessThanOrEqual(20);
    expect(out.endsWith('…')).toBe(true);
  });
});

describe('offline text: relative dates', () => {
  it('formats dates in UTC as "7 May 2023"', () => {
    expect(formatDate(MAY_8)).toBe('8 May 2023');
    expect(mentionsDate('on 7 May 2023')).toBe(true);
    expect(mentionsDate('no date here')).toBe(false);
  });

  it.each([
    ['I went to a chess club yesterday.', MAY_8, 'I went to a chess club on 7 May 2023.'],
    ['Yesterday I ran.', MAY_8, 'On 7 May 2023 I ran.'],
    // A holiday named relative to now: the holiday and its date.
    [
      'I broke my wrist skiing last Christmas.',
      MAY_8,
      'I broke my wrist skiing at Christmas, 25 December 2022.',
    ],
    [
      'Next Halloween I want a better costume.',
      MAY_8,
      'On Halloween, 31 October 2023 I want a better costume.',
    ],
    ['We hosted twelve people this Easter.', MAY_8, 'We hosted twelve people at Easter, 9 April 2023.'],
    ['The last Christmas party was loud.', MAY_8, 'The last Christmas party was loud.'],
    // The subject of its sentence: the day itself, no "on".
    ['Yesterday was our tenth anniversary.', MAY_8, '7 May 2023 was our tenth anniversary.'],
    ['Tomorrow is my last day at the bakery.', MAY_8, '9 May 2023 is my last day at the bakery.'],
    ['I built that bookshelf last year!', MAY_8, 'I built that bookshelf in 2022!'],
    ['We have known each other since last year.', MAY_8, 'We have known each other since 2022.'],
    ['I fixed the old bike last Saturday.', MAY_25, 'I fixed the old bike on Saturday, 20 May 2023.'],
    ['We are going sailing next month.', MAY_25, 'We are going sailing in June 2023.'],
    [
      'My school event last week was great.',
      MAY_25,
      'My school event in the week before 25 May 2023 was great.',
    ],
    ['I started learning Dutch three years ago.', MAY_8, 'I started learning Dutch in 2020.'],
    ['See you tomorrow morning.', MAY_8, 'See you on the morning of 9 May 2023.'],
    ['I moved two days ago.', MAY_8, 'I moved on 6 May 2023.'],
    // "... ago today": the same day of that year, month or week
    ['We got married three years ago today!', MAY_8, 'We got married on 8 May 2020!'],
    ['I adopted Rufus two weeks ago today.', MAY_8, 'I adopted Rufus on 24 April 2023.'],
    ['It was a few days ago.', MAY_8, 'It was a few days before 8 May 2023.'],
    ['The party is in 3 days.', MAY_8, 'The party is on 11 May 2023.'],
    ["I'll be back in a week.", MAY_8, "I'll be back in the week of 15 May 2023."],
    ['In two weeks I start my new job.', MAY_8, 'In the week of 22 May 2023 I start my new job.'],
    // a vague count names no week
    ["We're moving in a few weeks.", MAY_8, "We're moving in a few weeks."],
    // In a clause told in the past, "in a week" is how long it took, not a date.
    [
      'Last month I finished the whole series in a week.',
      MAY_8,
      'In April 2023 I finished the whole series in a week.',
    ],
    ['We painted the entire flat in two days.', MAY_8, 'We painted the entire flat in two days.'],
    [
      'She ran the trail in 3 days, and I will run it in 3 days too.',
      MAY_8,
      'She ran the trail in 3 days, and I will run it on 11 May 2023 too.',
    ],
    ['We met last weekend.', MAY_25, 'We met on the weekend of 20-21 May 2023.'],
    ['Next Friday suits me.', MAY_25, 'On Friday, 2 June 2023 suits me.'],
    ['I swam a lot last summer.', MAY_8, 'I swam a lot in summer 2022.'],
    // "next summer" is the one after "this summer", also when this one is still ahead
    ['We want to marry next summer.', MAY_8, 'We want to marry in summer 2024.'],
    ['We want to marry this summer.', MAY_8, 'We want to marry in summer 2023.'],
    ['It seems like only yesterday.', MAY_8, 'It seems like only yesterday.'],
    // "this weekend" told in the past on a weekday: the weekend just gone.
    ['I went hiking this weekend.', MAY_8, 'I went hiking on the weekend of 6-7 May 2023.'],
    ['I will go hiking this weekend.', MAY_8, 'I will go hiking on the weekend of 13-14 May 2023.'],
  ])('%s', (input, now, expected) => {
    expect(resolveRelativeDates(input, now)).toBe(expected);
  });

  it.each([
    ['My niece was born on March 13th.', MAY_8, 'My niece was born on 13 March 2023.'],
    ['We met on December 28th.', MAY_8, 'We met on 28 December 2022.'],
    ["I'll fly out on the 2nd of April.", MAY_8, "I'll fly out on 2 April 2024."],
    [
      'My birthday, which was on the 3rd, was quiet.',
      MAY_8,
      'My birthday, which was on 3 May 2023, was quiet.',
    ],
    ['The recital on the 20th was long.', MAY_8, 'The recital on 20 April 2023 was long.'],
    // The tense of the clause the day is in, not of the one before it.
    ['I got the offer and I start on June 1st!', MAY_8, 'I got the offer and I start on 1 June 2023!'],
    // The weekend alone, the month's end, a month alone: by the clause's tense (8 May 2023 is a Monday).
    ['I saw her over the weekend.', MAY_8, 'I saw her over the weekend of 6-7 May 2023.'],
    ["I'll see her over the weekend.", MAY_8, "I'll see her over the weekend of 13-14 May 2023."],
    ['By the end of the month I will be done.', MAY_8, 'By the end of May 2023 I will be done.'],
    ['I have been vegan since January.', MAY_8, 'I have been vegan since January 2023.'],
    ['We went to Oslo in June.', MAY_8, 'We went to Oslo in June 2022.'],
    ['We fly to Oslo in June.', MAY_8, 'We fly to Oslo in June 2023.'],
    ['I moved last October.', MAY_8, 'I moved in October 2022.'],
    ['Next April we marry.', MAY_8, 'In April 2024 we marry.'],
    ['You may go in early May.', MAY_8, 'You may go in early May 2023.'],
    // Told in neither tense: the next such day (a plan, a schedule).
    ['My exam is on January 5th.', Date.UTC(2023, 11, 20), 'My exam is on 5 January 2024.'],
    ['My dentist appointment is March 13th.', MAY_8, 'My dentist appointment is 13 March 2024.'],
    [
      'Can you help me plan a trip in October?',
      Date.UTC(2024, 2, 14),
      'Can you help me plan a trip in October 2024?',
    ],
    // "need" is no verb in the past for ending in "ed".
    ['I need a gift for her birthday in June.', MAY_8, 'I need a gift for her birthday in June 2023.'],
    ['The recital is on the 20th.', MAY_8, 'The recital is on 20 May 2023.'],
    ['The recital is on the 3rd.', MAY_8, 'The recital is on 3 June 2023.'],
    // A weekday alone: the last one in the past, else the next from today (8 May 2023 is a Monday).
    ['We went hiking on Saturday.', MAY_8, 'We went hiking on Saturday, 6 May 2023.'],
    ['The dinner is on Saturday.', MAY_8, 'The dinner is on Saturday, 13 May 2023.'],
    ["I'll call her on Monday.", MAY_8, "I'll call her on Monday, 15 May 2023."],
    ['The pool is closed on Sundays.', MAY_8, 'The pool is closed on Sundays.'],
    // Told in the past of someone named, or of "my ..." (not only of "I", "we", "she", ...).
    [
      'Sad news: Biscuit passed away on Tuesday.',
      MAY_8,
      'Sad news: Biscuit passed away on Tuesday, 2 May 2023.',
    ],
    [
      'My little brother started school on Thursday.',
      MAY_8,
      'My little brother started school on Thursday, 4 May 2023.',
    ],
    ['Dad went back to work on Friday.', MAY_8, 'Dad went back to work on Friday, 5 May 2023.'],
    // A feeling is no past: the day is still ahead.
    [
      'So excited for the concert on Saturday!',
      MAY_8,
      'So excited for the concert on Saturday, 13 May 2023!',
    ],
    [
      'My sister is worried about the exam on Friday.',
      MAY_8,
      'My sister is worried about the exam on Friday, 12 May 2023.',
    ],
    // Told in the past of arranging it (signed up, booked, registered): the day or the month
    // of the arranging when it is at most three months ago, else of the thing arranged, ahead.
    [
      'I signed up for the coastal half marathon on September 14th.',
      MAY_8,
      'I signed up for the coastal half marathon on 14 September 2023.',
    ],
    [
      'I signed up for the half marathon on 14 September.',
      Date.UTC(2025, 2, 15),
      'I signed up for the half marathon on 14 September 2025.',
    ],
    ['I signed up for the gym on March 3rd.', MAY_8, 'I signed up for the gym on 3 March 2023.'],
    ['We booked a cabin by the lake in October.', MAY_8, 'We booked a cabin by the lake in October 2023.'],
    ['I registered for the course in February.', MAY_8, 'I registered for the course in February 2023.'],
    ['We went to the lake in October.', MAY_8, 'We went to the lake in October 2022.'],
    // The verb before the date governs it, whatever the rest of the clause says.
    [
      'My mum passed away in October and Christmas is going to be hard this year.',
      MAY_8,
      'My mum passed away in October 2022 and Christmas is going to be hard this year.',
    ],
    // The nearest verb in the present, nothing after it in the past: a plan, whatever was
    // told in the past before it.
    [
      "I had my review and my boss said I'm getting promoted to team lead in September.",
      MAY_8,
      "I had my review and my boss said I'm getting promoted to team lead in September 2023.",
    ],
    [
      "We called off the cruise because Ana's brother is getting married in October.",
      MAY_8,
      "We called off the cruise because Ana's brother is getting married in October 2023.",
    ],
    ['I was told the results are coming in July.', MAY_8, 'I was told the results are coming in July 2023.'],
    // ... not a noun in "-ing", nor a present followed by a verb in the past.
    ["I went to Ana's wedding in March.", MAY_8, "I went to Ana's wedding in March 2023."],
    [
      "I'm still getting over the cold I caught in June.",
      MAY_8,
      "I'm still getting over the cold I caught in June 2022.",
    ],
    // The start of what was arranged: the next such month unless it is recent.
    [
      'I got the flexible hours approved, starting at 10 from June.',
      MAY_8,
      'I got the flexible hours approved, starting at 10 from June 2023.',
    ],
    ['I got a job in March, starting in April.', MAY_8, 'I got a job in March 2023, starting in April 2023.'],
    // A weekday's part in the plural is a habit, not a date.
    ['I do my planning on Sunday evenings.', MAY_8, 'I do my planning on Sunday evenings.'],
    // A holiday told alone: the last one in the past, else the next.
    ['We went to my parents at Christmas.', MAY_8, 'We went to my parents at Christmas, 25 December 2022.'],
    ['What should I cook for Thanksgiving?', MAY_8, 'What should I cook for Thanksgiving, 23 November 2023?'],
    [
      'She dressed up as a bat on Halloween.',
      MAY_8,
      'She dressed up as a bat on Halloween, 31 October 2022.',
    ],
    [
      'I bought a Christmas tree at the Christmas market.',
      MAY_8,
      'I bought a Christmas tree at the Christmas market.',
    ],
    ['We got engaged at Christmas 2021.', MAY_8, 'We got engaged at Christmas 2021.'],
    // Not a day: a rank, an attempt, a year already said, "2 of May".
    ['I came 2nd on the 5th attempt.', MAY_8, 'I came 2nd on the 5th attempt.'],
    ['We met on 28 December 2022.', MAY_8, 'We met on 28 December 2022.'],
    ['Version 2 of May notes.', MAY_8, 'Version 2 of May notes.'],
  ])('gives "%s" the date it leaves unsaid', (input, now, expected) => {
    expect(withYears(input, now)).toBe(expected);
  });

  it('leaves text without relative expressions untouched', () => {
    const s = 'Baking bread is how I unwind on a slow evening.';
    expect(resolveRelativeDates(s, MAY_8)).toBe(s);
  });
});

describe('offline text: third-person rewriting', () => {
  it('replaces first-person subjects and re-conjugates their verbs', () => {
    expect(toThirdPerson("I'm buried in paperwork.", 'Tomas', 'Rosa').text).toBe(
      'Tomas is buried in paperwork.',
    );
    expect(toThirdPerson('I really love cooking and I also enjoy rowing.', 'Tom', null).text).toBe(
      'Tom really loves cooking and Tom also enjoys rowing.',
    );
    expect(toThirdPerson('I have 3 kids and I do yoga.', 'Bob', null).text).toBe(
      'Bob has 3 kids and Bob does yoga.',
    );
    expect(toThirdPerson("I'd never been there.", 'Bob', null).text).toBe('Bob had never been there.');
    // "you" after a noun phrase is the subject of a clause on it; after a verb, its object
    expect(toThirdPerson('Select only the columns you need.', 'Bot', 'Dana').text).toBe(
      'Select only the columns Dana needs.',
    );
    expect(toThirdPerson('Thanks for all you do, it makes you stronger.', 'Bot', 'Dana').text).toBe(
      'Thanks for all Dana does, it makes Dana stronger.',
    );
    expect(toThirdPerson('Thank the people who helped you with the move.', 'Bot', 'Dana').text).toBe(
      'Thank the people who helped Dana with the move.',
    );
    expect(toThirdPerson("I'd love to help.", 'Bob', null).text).toBe('Bob would love to help.');
    expect(toThirdPerson('My husband and I go sailing.', 'Tomas', null).text).toBe(
      "Tomas's husband and Tomas go sailing.",
    );
    expect(toThirdPerson('I no longer work at the bakery.', 'Bob', null).text).toBe(
      'Bob no longer works at the bakery.',
    );
    // "US" in capitals is the country.
    expect(toThirdPerson('Flights from the US east coast cost more.', 'Bob', 'Kim').text).toBe(
      'Flights from the US east coast cost more.',
    );
    expect(toThirdPerson('Send us a postcard.', 'Bob', 'Kim').text).toBe('Send Bob and others a postcard.');
    // "Just me and ..." answers who; "Just got back" drops its subject.
    expect(toThirdPerson('Just me and my partner Luca.', 'Bob', 'Kim').text).not.toMatch(/^Bob just Bob/);
    expect(toThirdPerson('Just got back from Rome.', 'Bob', 'Kim').text).toBe('Bob just got back from Rome.');
    // "Just" before a thing, not a verb in the past, drops no subject.
    expect(toThirdPerson('Just penicillin, no food ones.', 'Bob', 'Kim').text).toBe(
      'Just penicillin, no food ones.',
    );
    expect(toThirdPerson('Just coffee for me.', 'Bob', 'Kim').text).not.toMatch(/^Bob just/);
    expect(toThirdPerson('Just finished my thesis!', 'Bob', 'Kim').text).toBe(
      "Bob just finished Bob's thesis!",
    );
    // "and I" after a clause with its own verb opens a clause of the speaker's.
    expect(toThirdPerson('My wife makes $62k and I make about $71k.', 'Bob', null).text).toBe(
      "Bob's wife makes $62k and Bob makes about $71k.",
    );
    expect(toThirdPerson('My parents and I go sailing.', 'Bob', null).text).toBe(
      "Bob's parents and Bob go sailing.",
    );
    // A subject joined to another takes no verb of its own ("ands").
    expect(toThirdPerson('You and Ana should come.', 'Bob', 'Kim').text).toBe('Kim and Ana should come.');
    expect(toThirdPerson('I and Ana went.', 'Bob', null).text).toBe('Bob and Ana went.');
    // A pronoun with a capital inside a sentence, in a name or title, stays (at its start, a
    // capital tells nothing).
    expect(toThirdPerson('Try the pies at Our Place, a diner on Main Street.', 'Bob', 'Kim').text).toBe(
      'Try the pies at Our Place, a diner on Main Street.',
    );
    expect(toThirdPerson('I watched My Fair Lady and Me Before You.', 'Bob', 'Kim').text).toBe(
      'Bob watched My Fair Lady and Me Before You.',
    );
    // "I" after a word that numbers is the numeral one, and the word after it no verb.
    expect(toThirdPerson('I was diagnosed with Type I diabetes last year.', 'Bob', null).text).toBe(
      'Bob was diagnosed with Type I diabetes last year.',
    );
    expect(toThirdPerson('My grandfather fought in World War I.', 'Bob', null).text).toBe(
      "Bob's grandfather fought in World War I.",
    );
    expect(toThirdPerson('The Phase I trial starts soon, I signed up.', 'Bob', null).text).toBe(
      'The Phase I trial starts soon, Bob signed up.',
    );
    expect(toThirdPerson("At this stage I think it's fine.", 'Bob', null).text).toBe(
      "At this stage Bob thinks it's fine.",
    );
    // A lowercase "i" beside an operator is a variable of code, and so is every lowercase "i"
    // of that sentence; a capital "I" stays the speaker.
    expect(toThirdPerson('My loop never ends: while i < 10: print(i)', 'Bob', 'Kim').text).toBe(
      "Bob's loop never ends: while i < 10: print(i)",
    );
    expect(toThirdPerson('You never increase i inside the loop; add i += 1.', 'Kim', 'Bob').text).toBe(
      'Bob never increases i inside the loop; add i += 1.',
    );
    expect(toThirdPerson('I wrote for (let i = 0; i < n; i++) and it fails.', 'Bob', null).text).toBe(
      'Bob wrote for (let i = 0; i < n; i++) and it fails.',
    );
    expect(toThirdPerson('i think i broke it', 'Bob', null).text).toBe('Bob thinks Bob broke it');
    expect(toThirdPerson('it was fun (i think) and i <3 it', 'Bob', null).text).toBe(
      'it was fun (Bob thinks) and Bob <3 it',
    );
    expect(toThirdPerson('i -- honestly -- forgot', 'Bob', null).text).toBe('Bob -- honestly -- forgot');
    // A verb after "and" in the speaker's present clause is hers; not after a modal or a past verb.
    expect(toThirdPerson("I'm redecorating my flat and want some ideas.", 'Bob', null).text).toBe(
      'Bob is redecorating their flat and wants some ideas.',
    );
    // a place's name after "to" is no infinitive: the verb after "and" is still hers
    expect(toThirdPerson("I'm moving to Leeds in June and need a removal van.", 'Bob', null).text).toBe(
      'Bob is moving to Leeds in June and needs a removal van.',
    );
    expect(toThirdPerson('I go to the gym and do yoga.', 'Bob', null).text).toBe(
      'Bob goes to the gym and does yoga.',
    );
    expect(toThirdPerson('I can swim and run fast.', 'Bob', null).text).toBe('Bob can swim and run fast.');
    expect(toThirdPerson('I went home and read a book.', 'Bob', null).text).toBe(
      'Bob went home and read a book.',
    );
    // Nor within an infinitive, a clause of its own after a comma, a subordinate clause, or nouns.
    for (const s of [
      'I need to tidy the garage and help my dad with the boxes.',
      "I'm gonna finish the shed and make a bench for the porch.",
      "I've repainted the whole kitchen, and look at the tiles.",
      "Evenings like this show me why I'm learning the violin and keep me practising.",
      'I love the lighting and love scenes of that old film.',
    ])
      expect(toThirdPerson(s, 'Bob', null).text).not.toMatch(/\band (?:helps|makes|looks|keeps|loves)\b/);
    expect(toThirdPerson('It means you earn interest on interest.', 'Bob', 'Ana').text).toBe(
      'It means Ana earns interest on interest.',
    );
    // After a modal the verb keeps its form.
    expect(toThirdPerson('How often should I water the fern?', 'Bob', null).text).toBe(
      'How often should Bob water the fern?',
    );
    expect(toThirdPerson('Could I bring my dog?', 'Bob', null).text).toBe('Could Bob bring their dog?');
  });

  it('turns "you" into the addressee, including inverted questions', () => {
    expect(toThirdPerson('How long have you lived there?', 'Rosa', 'Tomas').text).toBe(
      'How long has Tomas lived there?',
    );
    expect(toThirdPerson("You'd make a fine pilot!", 'Tomas', 'Rosa').text).toBe(
      'Rosa would make a fine pilot!',
    );
    expect(toThirdPerson("I'm lucky to have you on my team.", 'Tom', 'Ro').text).toBe(
      "Tom is lucky to have Ro on Tom's team.",
    );
    const kept = toThirdPerson('Do you like it?', 'Tom', null);
    expect(kept.text).toBe('Do you like it?');
  });

  it('supplies the dropped subject of elliptic sentences but not of gerund subjects', () => {
    expect(toThirdPerson('Preparing the spare room right now.', 'Rosa', null).text).toBe(
      'Rosa is preparing the spare room right now.',
    );
    expect(toThirdPerson('Been busy with work.', 'Bob', null).text).toBe('Bob has been busy with work.');
    expect(toThirdPerson('Love that jacket!', 'Tom', 'Ro').text).toBe('Tom loves that jacket!');
    expect(toThirdPerson('Hope you are well.', 'Tom', 'Ro').text).toBe('Tom hopes Ro is well.');
    expect(toThirdPerson('Love is all you need.', 'Tom', null).text).toBe('Love is all you need.');
    // Where one is back from, with no verb.
    expect(toThirdPerson('Back from Lisbon!', 'Ada', null).text).toBe('Ada is back from Lisbon!');
    expect(toThirdPerson('Just back from the clinic.', 'Ada', null).text).toBe(
      'Ada is just back from the clinic.',
    );
    expect(toThirdPerson('Back to the question of the lease.', 'Ada', null).text).toBe(
      'Back to the question of the lease.',
    );
    // Where one is back at, with no verb; not a time gone by ("back in 2019").
    expect(toThirdPerson('Back at the dentist this morning for the crown.', 'Ada', null).text).toBe(
      'Ada is back at the dentist this morning for the crown.',
    );
    expect(toThirdPerson('Back at work after the flu.', 'Ada', null).text).toBe(
      'Ada is back at work after the flu.',
    );
    expect(toThirdPerson('Back in 2019 things were simpler.', 'Ada', null).text).toBe(
      'Back in 2019 things were simpler.',
    );
    // Any verb in the past before its object drops its subject; a participle does not.
    expect(toThirdPerson('Submitted my thesis to the committee today!', 'Ada', null).text).toBe(
      "Ada submitted Ada's thesis to the committee today!",
    );
    expect(toThirdPerson('Decided not to renew the lease.', 'Ada', null).text).toBe(
      'Ada decided not to renew the lease.',
    );
    expect(toThirdPerson('Based on my notes, the drive is long.', 'Ada', null).text).toBe(
      "Based on Ada's notes, the drive is long.",
    );
    expect(toThirdPerson('Need a new charger.', 'Ada', null).text).not.toMatch(/^Ada need\b/);
    const gerund = toThirdPerson('Cooking for ourselves is cheaper.', 'Tom', null);
    expect(gerund.text).toBe('Cooking for themselves is cheaper.');
    expect(gerund.firstPerson).toBe(false);
  });

  it('rewrites "we" as the speaker and others, then "they"', () => {
    expect(toThirdPerson("We're going sailing and we love it.", 'Tom', null).text).toBe(
      'Tom and others are going sailing and they love it.',
    );
  });

  it('conjugates regular and irregular verbs', () => {
    expect(['go', 'have', 'watch', 'try', 'need', 'went', 'can', 'play'].map(conjugate)).toEqual([
      'goes',
      'has',
      'watches',
      'tries',
      'needs',
      'went',
      'can',
      'plays',
    ]);
  });
});

describe('offline text: interjections', () => {
  it('strips leading interjections, vocatives, connectives and a trailing laugh', () => {
    expect(stripInterjections('Wow, Tomas! I finally fixed the bike lol.', ['Tomas'])).toBe(
      'I finally fixed the bike.',
    );
    expect(stripInterjections('By the way I moved to Porto haha', [])).toBe('I moved to Porto');
    expect(stripInterjections("I'm Sofia, by the way.", [])).toBe("I'm Sofia.");
    expect(stripInterjections('I moved to Porto btw', [])).toBe('I moved to Porto');
    expect(stripInterjections('Ugh, my flight to Rome got cancelled again.', [])).toBe(
      'my flight to Rome got cancelled again.',
    );
    expect(stripInterjections('Phew! The tests pass now.', [])).toBe('The tests pass now.');
    // "So far", "so much": no opening "so" to drop.
    expect(stripInterjections('So I moved to Porto.', [])).toBe('I moved to Porto.');
    expect(stripInterjections('So far I have read 4 books this year.', [])).toBe(
      'So far I have read 4 books this year.',
    );
    expect(stripInterjections('So much has changed since March.', [])).toBe(
      'So much has changed since March.',
    );
    // Asked for someone else: the pronoun after the frame stands for that person.
    expect(stripInterjections('Asking for my neighbour Ruth, her cat Oscar is fifteen.', [])).toBe(
      "my neighbour Ruth's cat Oscar is fifteen.",
    );
    expect(stripInterjections('Asking for a friend: she wants to learn to knit.', [])).toBe(
      'a friend wants to learn to knit.',
    );
    // An apology opening a correction, and "by the way" inside a sentence.
    expect(stripInterjections('Sorry, I meant Porto, not Lisbon.', [])).toBe('I meant Porto, not Lisbon.');
    expect(stripInterjections('Sorry to hear that.', [])).toBe('Sorry to hear that.');
    expect(stripInterjections('I no longer eat meat, by the way, so skip the ham.', [])).toBe(
      'I no longer eat meat, so skip the ham.',
    );
    // How the news is taken, not what it is.
    expect(stripInterjections('Good news, I got the job!', [])).toBe('I got the job!');
    expect(stripInterjections('Some sad news - my uncle sold the farm.', [])).toBe('my uncle sold the farm.');
    expect(stripInterjections('Good news travels fast.', [])).toBe('Good news travels fast.');
    expect(stripInterjections('The cat knocked over my coffee lol lmao!!', [])).toBe(
      'The cat knocked over my coffee!!',
    );
    // a laugh of any length
    expect(stripInterjections('Biscuit stole my sandwich hahahaha!', [])).toBe('Biscuit stole my sandwich!');
    expect(stripInterjections('We got lost on the way, ahahaha, hehehe.', [])).toBe(
      'We got lost on the way.',
    );
    expect(stripInterjections('The tent blew away hahaaa', [])).toBe('The tent blew away');
    // a short word that only looks like part of one stays
    expect(stripInterjections('She is taller than he.', [])).toBe('She is taller than he.');
    expect(stripInterjections('We had lunch with Ha.', [])).toBe('We had lunch with Ha.');
    // a laugh inside the sentence, or a word that only ends like one, stays
    expect(stripInterjections('The lol cats forum is down.', [])).toBe('The lol cats forum is down.');
    expect(stripInterjections('We went to Lahaha.', [])).toBe('We went to Lahaha.');
  });
});

describe('offline text: key phrases', () => {
  it('leaves adverbs of time and manner out of a phrase', () => {
    const phrases = keyPhrases(
      [
        'The puppy already chewed the garden hose.',
        'He finally chewed through the garden hose, honestly impressive.',
        'We recently replaced the garden hose.',
      ],
      4,
    );
    expect(phrases[0]).toBe('garden hose');
    for (const p of phrases) expect(p).not.toMatch(/\b(?:already|finally|honestly|recently)\b/i);
  });

  it('leaves counts and ranks out of a phrase ("two roommates": roommates)', () => {
    const phrases = keyPhrases(
      [
        'I live with two roommates.',
        'Two roommates share the kitchen.',
        'My first sourdough loaf was dense.',
      ],
      3,
    );
    expect(phrases).toContain('roommates');
    for (const p of phrases) expect(p).not.toMatch(/\b(?:two|first)\b/i);
  });
});
