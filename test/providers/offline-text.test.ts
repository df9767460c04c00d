import { describe, expect, it } from 'vitest';
import { formatDate, mentionsDate, resolveRelativeDates } from '../../src/providers/offline/dates.js';
import { conjugate, toThirdPerson } from '../../src/providers/offline/rewrite.js';
import { contentStems, splitSentences, stem, tokenize, truncate } from '../../src/providers/offline/text.js';

/** 8 May 2023 (a Monday), 13:56 UTC. */
const MAY_8 = Date.UTC(2023, 4, 8, 13, 56);
/** 25 May 2023 (a Thursday). */
const MAY_25 = Date.UTC(2023, 4, 25, 13, 14);

describe('offline text: sentences and tokens', () => {
  it('splits sentences on terminal punctuation and line breaks, not on abbreviations or decimals', () => {
    expect(splitSentences('Hey Mel! I met Dr. Smith at 3.30 today. Was it fun?\nYes')).toEqual([
      'Hey Mel!',
      'I met Dr. Smith at 3.30 today.',
      'Was it fun?',
      'Yes',
    ]);
    expect(splitSentences('   ')).toEqual([]);
  });

  it('tokenises with straightened apostrophes and stems lightly', () => {
    expect(tokenize('I’m painting LGBTQ+ murals!')).toEqual(["i'm", 'painting', 'lgbtq+', 'murals']);
    expect(stem('painting')).toBe(stem('paints'));
    expect(stem('painted')).toBe(stem('paint'));
    expect(stem('agencies')).toBe('agency');
    expect(contentStems('The kids are so excited about the camping trip')).toEqual([
      'kid',
      'excit',
      'camp',
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
    ['I went to a support group yesterday.', MAY_8, 'I went to a support group on 7 May 2023.'],
    ['Yesterday I ran.', MAY_8, 'On 7 May 2023 I ran.'],
    ['I painted that sunrise last year!', MAY_8, 'I painted that sunrise in 2022!'],
    ['We have known each other since last year.', MAY_8, 'We have known each other since 2022.'],
    ['I ran a charity race last Saturday.', MAY_25, 'I ran a charity race on Saturday, 20 May 2023.'],
    ['We are going camping next month.', MAY_25, 'We are going camping in June 2023.'],
    [
      'My school event last week was great.',
      MAY_25,
      'My school event in the week before 25 May 2023 was great.',
    ],
    ['I started transitioning three years ago.', MAY_8, 'I started transitioning in 2020.'],
    ['See you tomorrow morning.', MAY_8, 'See you on the morning of 9 May 2023.'],
    ['I moved two days ago.', MAY_8, 'I moved on 6 May 2023.'],
    ['It was a few days ago.', MAY_8, 'It was a few days before 8 May 2023.'],
    ['The party is in 3 days.', MAY_8, 'The party is on 11 May 2023.'],
    ['We met last weekend.', MAY_25, 'We met on the weekend of 20-21 May 2023.'],
    ['Next Friday works.', MAY_25, 'On Friday, 2 June 2023 works.'],
    ['I swam a lot last summer.', MAY_8, 'I swam a lot in summer 2022.'],
    ['It feels like just yesterday.', MAY_8, 'It feels like just yesterday.'],
  ])('%s', (input, now, expected) => {
    expect(resolveRelativeDates(input, now)).toBe(expected);
  });

  it('leaves text without relative expressions untouched', () => {
    const s = 'Painting is a great way to relax after a long day.';
    expect(resolveRelativeDates(s, MAY_8)).toBe(s);
  });
});

describe('offline text: third-person rewriting', () => {
  it('replaces first-person subjects and re-conjugates their verbs', () => {
    expect(toThirdPerson("I'm swamped with work.", 'Melanie', 'Caroline').text).toBe(
      'Melanie is swamped with work.',
    );
    expect(toThirdPerson('I really love painting and I also enjoy running.', 'Mel', null).text).toBe(
      'Mel really loves painting and Mel also enjoys running.',
    );
    expect(toThirdPerson('I have 3 kids and I do yoga.', 'Bob', null).text).toBe(
      'Bob has 3 kids and Bob does yoga.',
    );
    expect(toThirdPerson("I'd never been there.", 'Bob', null).text).toBe('Bob had never been there.');
    expect(toThirdPerson("I'd love to help.", 'Bob', null).text).toBe('Bob would love to help.');
    expect(toThirdPerson('My husband and I go camping.', 'Melanie', null).text).toBe(
      "Melanie's husband and Melanie go camping.",
    );
  });

  it('turns "you" into the addressee, including inverted questions', () => {
    expect(toThirdPerson('How long have you been married?', 'Caroline', 'Melanie').text).toBe(
      'How long has Melanie been married?',
    );
    expect(toThirdPerson("You'd be a great counselor!", 'Melanie', 'Caroline').text).toBe(
      'Caroline would be a great counselor!',
    );
    expect(toThirdPerson("I'm so glad to have you in my life.", 'Mel', 'Caro').text).toBe(
      "Mel is so glad to have Caro in Mel's life.",
    );
    const kept = toThirdPerson('Do you like it?', 'Mel', null);
    expect(kept.text).toBe('Do you like it?');
  });

  it('supplies the dropped subject of elliptic sentences but not of gerund subjects', () => {
    expect(toThirdPerson('Researching adoption agencies right now.', 'Caroline', null).text).toBe(
      'Caroline is researching adoption agencies right now.',
    );
    expect(toThirdPerson('Been busy with work.', 'Bob', null).text).toBe('Bob has been busy with work.');
    expect(toThirdPerson('Love that painting!', 'Mel', 'Caro').text).toBe('Mel loves that painting!');
    expect(toThirdPerson('Hope you are well.', 'Mel', 'Caro').text).toBe('Mel hopes Caro is well.');
    expect(toThirdPerson('Love is all you need.', 'Mel', null).text).toBe('Love is all you need.');
    const gerund = toThirdPerson('Taking care of ourselves is vital.', 'Mel', null);
    expect(gerund.text).toBe('Taking care of themselves is vital.');
    expect(gerund.firstPerson).toBe(false);
  });

  it('rewrites "we" as the speaker and others, then "they"', () => {
    expect(toThirdPerson("We're going camping and we love it.", 'Mel', null).text).toBe(
      'Mel and others are going camping and they love it.',
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
