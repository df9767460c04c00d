import { describe, expect, it } from 'vitest';
import { asksAboutSelf } from '../../src/engine/search/own-words.js';

/** Which questions a user asks about herself (src/engine/search/own-words.ts). */
describe('a question the user asks about herself', () => {
  it.each([
    'Where do I work?',
    "What's my dog called?",
    'When did we move to Porto?',
    'Can you remind me where I parked?',
    'Hey, could you tell me what my sister studies?',
    'Do you remember which hotel I booked?',
    'Tell me about my allergies',
    'what did i say about the budget',
    'Could you recommend a film for me to watch tonight?',
    'can you remind us where we parked?',
    'Did we fly to the US in May?',
    'What did I read about World War I?',
    'REMIND US WHERE WE PARKED',
    // a closing "thank you" is as polite as "thanks"
    'Where do I work? Thanks!',
    'Where do I work? Thank you!',
    'where do i work, thank you so much',
    'Thank you! Where did we park?',
    'What is my sister called? Thank you very much :)',
  ])('%s -> about herself', (q) => {
    expect(asksAboutSelf(q)).toBe(true);
  });

  it.each([
    'What did you suggest for my trip?',
    'Which hotel did you recommend to me?',
    'What did the assistant say about my budget?',
    'Can you remind me what your first tip was?',
    'Where does Lena work?',
    'Tell me the capital of Norway',
    'Can you tell me how to bake bread?',
    'What is a good beagle toy?',
    'Could you list the hotels you recommended to me?',
    'Can you recommend a film?',
    // "US" the country, "I" the numeral
    'Do Portuguese citizens need a visa for the US?',
    'When did Theo move to the US?',
    'What started World War I?',
    'Is Type I diabetes hereditary?',
    // thanks for something the assistant did, or a "you" beside the thanks
    'What did I thank you for yesterday?',
    'Thank you for the tips, which hotel did you suggest for my trip?',
    'Where do I work? Thank you, you are great!',
  ])('%s -> not about herself', (q) => {
    expect(asksAboutSelf(q)).toBe(false);
  });
});
