/**
 * Capitalised words that number what follows them: after one, "I" is the Roman numeral one,
 * not the first person ("World War I", "Part I", "Type I diabetes", "a Phase I trial").
 */
export const NUMBERING_WORDS: ReadonlySet<string> = new Set([
  'War',
  'Part',
  'Phase',
  'Chapter',
  'Act',
  'Book',
  'Volume',
  'Type',
  'Stage',
  'Class',
  'Grade',
  'Level',
  'Section',
  'Article',
  'Title',
]);

/** Every "I" that is the numeral one after a numbering word (not "I'm", "I've"). */
export const NUMERAL_I = new RegExp(`\\b(?:${[...NUMBERING_WORDS].join('|')})\\s+I\\b(?!['’])`, 'g');
