import { describe, expect, it } from 'vitest';
import { WordNetLexicon } from '../../adapters/models/wordnetLexicon';
import { expandQuery, isNegated, STRONG_WEIGHT } from './queryExpansion';

const lexicon = new WordNetLexicon();
/** The alternatives of the group for `word`, as 'text/relation'. */
const of = (query: string, word: string) =>
  expandQuery(query, lexicon)
    .groups.find((g) => g.text === word)
    ?.alternatives.map((a) => `${a.text}/${a.relation}`) ?? [];

describe('query expansion by meaning (WordNet)', () => {
  it('finds synonyms: physician is a doctor, an automobile a car, purchased is bought', () => {
    expect(of('a physician bought an automobile', 'physician')).toContain('doctor/synonym');
    expect(of('a physician bought an automobile', 'automobile')).toContain('car/synonym');
    expect(of('she purchased it', 'purchased')).toContain('buy/synonym');
    const doctor = expandQuery('physician', lexicon).groups[0]!.alternatives.find((a) => a.text === 'doctor')!;
    expect(doctor.weight).toBeGreaterThanOrEqual(STRONG_WEIGHT);
  });

  it('finds hyponyms (a kind of what was asked) strongly, hypernyms only weakly', () => {
    expect(of('a beverage', 'beverage')).toEqual(expect.arrayContaining(['coffee/hyponym', 'milk/hyponym']));
    const loaf = expandQuery('the loaf', lexicon).groups[0]!.alternatives;
    const bread = loaf.find((a) => a.text === 'bread')!;
    expect(bread.relation).toBe('hypernym');
    expect(bread.weight).toBeLessThan(STRONG_WEIGHT);
    const coffee = expandQuery('beverage', lexicon).groups[0]!.alternatives.find((a) => a.text === 'coffee')!;
    expect(coffee.weight).toBeGreaterThan(bread.weight);
  });

  it('reads multi-word lemmas as one, and offers them as alternatives', () => {
    const e = expandQuery('we ate ice cream by the sea', lexicon);
    expect(e.groups.map((g) => g.text)).toContain('ice cream');
    expect(e.groups.map((g) => g.text)).not.toContain('cream');
    expect(of('we ate ice cream', 'ice cream')).toContain('frozen dessert/hypernym');
  });

  it("joins a verb's irregular forms to its base, both ways", () => {
    expect(of('he bought bread', 'bought')).toContain('buy/synonym');
    expect(of('we ate', 'ate')).toContain('eat/synonym');
    expect(of('buy a car', 'buy')).toContain('bought/synonym');
  });

  it('reads the query in its spoken forms, and expands neither numbers, function words nor light verbs', () => {
    const e = expandQuery("Mr. Smith didn't drink 25 beverages", lexicon);
    expect(e.spoken).toBe('mister smith did not drink 25 beverages');
    expect(e.groups.map((g) => g.text)).toEqual(['mister', 'smith', 'drink', 'beverages']);
    expect(expandQuery('he went to get it', lexicon).groups).toEqual([]);
    // nor are light verbs offered as alternatives ('take' is a kind of buying in WordNet)
    expect(of('bought', 'bought').some((a) => a.startsWith('take/') || a.startsWith('get/'))).toBe(false);
  });

  it('notes negation, written either way', () => {
    expect(expandQuery('the doctor did not buy a car', lexicon).negated).toBe(true);
    expect(expandQuery("the doctor didn't buy a car", lexicon).negated).toBe(true);
    expect(expandQuery('he never came', lexicon).negated).toBe(true);
    expect(expandQuery('the doctor bought a car', lexicon).negated).toBe(false);
    expect(isNegated("I didn't like the soup")).toBe(true);
    expect(isNegated('I did not like the soup')).toBe(true);
    expect(isNegated('nothing was said')).toBe(true);
    expect(isNegated('I liked the soup, notably')).toBe(false);
  });

  it('keeps the expansion small: at most 10 alternatives a word, 40 a query, and none without WordNet', () => {
    const e = expandQuery('car dog house tree water food music book city road', lexicon);
    for (const g of e.groups) expect(g.alternatives.length).toBeLessThanOrEqual(10);
    expect(e.groups.reduce((n, g) => n + g.alternatives.length, 0)).toBeLessThanOrEqual(40);
    expect(expandQuery('a physician', null).groups).toEqual([]);
  });
});
