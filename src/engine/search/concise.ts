/**
 * A fact as a context shows it: the frame of reported speech in its shortest form, so a
 * budget holds more facts. The fact itself (its text in an answer, its search terms and
 * vector) is unchanged; only the line a model reads is.
 *
 *   "Nora said that the kiln arrived."                        -> "Nora: the kiln arrived."
 *   "Nora told Theo that the kiln is hot."                    -> "Nora to Theo: the kiln is hot."
 *   'Asked by Theo "Did it arrive?", Nora answered: It did.'  -> 'Theo asked "Did it arrive?"; Nora: It did.'
 *
 * A speaker is one to three capitalised words ("Nora", "User", "Aunt Rosa"); a sentence whose
 * subject is anything else ("The vet said that ...") is shown as it is.
 */
const NAME = String.raw`\p{Lu}[\p{L}\p{M}'’.-]*(?: \p{Lu}[\p{L}\p{M}'’.-]*){0,2}`;

const SAID = new RegExp(String.raw`^(${NAME}) said that (?=\S)`, 'u');
const TOLD = new RegExp(String.raw`^(${NAME}) told (${NAME}) that (?=\S)`, 'u');
const ANSWERED = new RegExp(String.raw`^Asked by (${NAME}) ("[^"]*"), (${NAME}) answered: (?=\S)`, 'u');

export function conciseFact(text: string): string {
  return text.replace(ANSWERED, '$1 asked $2; $3: ').replace(TOLD, '$1 to $2: ').replace(SAID, '$1: ');
}
