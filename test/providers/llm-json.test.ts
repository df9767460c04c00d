import { describe, expect, it } from 'vitest';
import { extractJson, JsonExtractionError } from '../../src/providers/llm/json.js';

describe('extractJson', () => {
  it('parses plain JSON objects and arrays', () => {
    expect(extractJson('{"a":1,"b":[true,null]}')).toEqual({ a: 1, b: [true, null] });
    expect(extractJson('  [1, 2, 3]\n')).toEqual([1, 2, 3]);
  });

  it('unwraps ```json code fences', () => {
    expect(extractJson('Here you go:\n```json\n{"shift": true}\n```\nHope it helps.')).toEqual({
      shift: true,
    });
    expect(extractJson('```\n{"x": "y"}\n```')).toEqual({ x: 'y' });
  });

  it('finds the object inside surrounding prose', () => {
    expect(extractJson('Sure! The answer is {"name": "n", "n": 2} as requested.')).toEqual({
      name: 'n',
      n: 2,
    });
  });

  it('respects braces and escaped quotes inside strings', () => {
    const text = 'Result: {"text": "a } tricky \\" {string]", "ok": true} -- done {not json}';
    expect(extractJson(text)).toEqual({ text: 'a } tricky " {string]', ok: true });
  });

  it('prefers an object over an earlier bracketed aside', () => {
    expect(extractJson('As noted in [1], here it is: {"a": [1, 2]}')).toEqual({ a: [1, 2] });
  });

  it('returns an array when that is all there is', () => {
    expect(extractJson('The list: [{"a": 1}] end')).toEqual([{ a: 1 }]);
  });

  it('skips unbalanced or invalid candidates', () => {
    expect(extractJson('oops { not closed... then {"ok": 1}')).toEqual({ ok: 1 });
    expect(extractJson('{bad: json} and {"good": true}')).toEqual({ good: true });
  });

  it('tolerates trailing commas and raw newlines in strings', () => {
    expect(extractJson('{"a": [1, 2, ], "b": {"c": 3,},}')).toEqual({ a: [1, 2], b: { c: 3 } });
    expect(extractJson('{"a": "line one\nline two"}')).toEqual({ a: 'line one\nline two' });
    expect(extractJson('{"a": "keeps, commas ,]"}')).toEqual({ a: 'keeps, commas ,]' });
  });

  it('ignores <think> blocks', () => {
    expect(extractJson('<think>maybe {"shift": true}?</think>\n{"shift": false}')).toEqual({ shift: false });
  });

  it('throws a clear error when nothing parses', () => {
    expect(() => extractJson('I cannot help with that.')).toThrow(JsonExtractionError);
    expect(() => extractJson('I cannot help with that.')).toThrow(/no parseable JSON/);
    expect(() => extractJson('   ')).toThrow(/empty reply/);
    expect(() => extractJson('{"a": 1')).toThrow(JsonExtractionError);
  });
});
