import { describe, expect, it } from 'vitest';
import { matchParts, matchTerms } from './matchWords';

const marked = (text: string, query: string) =>
  matchParts(text, matchTerms(query))
    .filter((p) => p.match)
    .map((p) => p.text);

describe('matched words', () => {
  it('marks whole words of the query, in any case, and their longer forms', () => {
    expect(marked('Horses run across the field', 'horse field')).toEqual(['Horses', 'field']);
    expect(marked('A DOG sits by the bicycle', 'dog bicycle')).toEqual(['DOG', 'bicycle']);
  });

  it('leaves small words and parts of other words alone', () => {
    expect(marked('The cat is on the mat', 'the cat on a mat')).toEqual(['cat', 'mat']);
    expect(marked('a category of cats', 'cat')).toEqual(['cats']);
    expect(marked('concatenate', 'cat')).toEqual([]);
  });

  it('keeps the text whole, and unmarked with no query', () => {
    const parts = matchParts('Text on screen: "counter"', matchTerms('counter'));
    expect(parts.map((p) => p.text).join('')).toBe('Text on screen: "counter"');
    expect(parts.filter((p) => p.match)).toEqual([{ text: 'counter', match: true }]);
    expect(matchParts('anything', matchTerms(''))).toEqual([{ text: 'anything', match: false }]);
    expect(marked('a (b) c+ d', 'c+ (b)')).toEqual([]);
  });
});
