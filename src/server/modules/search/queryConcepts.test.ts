import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_CONFIDENCE } from '../../../contract';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { COLOUR_NAMES } from '../../adapters/models/colours';
import { createWordNet } from '../../adapters/models/index';
import type { WordNet } from '../../adapters/models/wordnet';
import { queryScore, type ResolvedConcept } from './conceptScore';
import { parseQuery } from './queryConcepts';

// Words chosen to be in no fixture: the parser and mapping must get them from WordNet alone.
describe('query concepts (real WordNet)', () => {
  let wn: WordNet;
  beforeAll(() => {
    wn = createWordNet(MODELS_DIR);
  });
  const parse = (text: string) => parseQuery(text, wn, COLOUR_NAMES);

  it("keeps WordNet's collocations as one lemmatised concept", () => {
    expect(parse('sea lions basking').map((c) => c.lemma)).toEqual(['sea lion', null]); // 'basking' is no noun
    expect(parse('a traffic light at night')[0]).toMatchObject({ text: 'traffic light', lemma: 'traffic light' });
    expect(parse('wolves in a forest').map((c) => c.lemma)).toEqual(['wolf', 'forest']);
  });

  it('binds colours and counts to the noun they describe, and keeps a lone colour as its own concept', () => {
    expect(parse('a yellow lorry')).toEqual([{ text: 'lorry', lemma: 'lorry', colours: ['yellow'], isColour: false, count: undefined }]);
    expect(parse('three dark blue kayaks')[0]).toMatchObject({ lemma: 'kayak', colours: ['dark blue'], count: 3 });
    // number words are spoken forms' (any from two to ninety), as digits are; 'several' says two
    expect(parse('twelve horses')[0]).toMatchObject({ lemma: 'horse', count: 12 });
    expect(parse('12 horses')[0]).toMatchObject({ lemma: 'horse', count: 12 });
    expect(parse('several horses')[0]).toMatchObject({ lemma: 'horse', count: 2 });
    expect(parse('one horse')[0]).toMatchObject({ lemma: 'horse', count: undefined });
    expect(parse('something purple').map((c) => [c.text, c.isColour])).toEqual([
      ['something', false],
      ['purple', true],
    ]);
  });

  it("keeps other adjectives as modifiers of the noun, not things to find ('feral goats')", () => {
    expect(parse('feral goats')).toEqual([expect.objectContaining({ lemma: 'goat', modifiers: ['feral'] })]);
  });

  it("takes the sense of a word that is one of the index's labels, even when it is not the commonest", () => {
    // 'palace' is first "a large and stately mansion"; ImageNet's class is "official residence"
    expect(wn.conceptTargets('palace')[0]).toMatchObject({ label: 'palace', relation: 'same' });
  });

  it('maps a specific word to the label above it and a general word to the labels below it', () => {
    const lorry = wn.conceptTargets('lorry');
    expect(lorry[0]).toMatchObject({ label: 'truck', relation: 'hypernym' });
    const tabby = new Map(wn.conceptTargets('tabby').map((t) => [t.label, t]));
    expect(tabby.get('cat')!.weight).toBeGreaterThan(0.8);
    const conveyance = new Map(wn.conceptTargets('motor vehicle').map((t) => [t.label, t]));
    for (const label of ['car', 'bus', 'truck', 'motorcycle']) expect(conveyance.get(label)?.relation, label).toBe('hyponym');
    expect(conveyance.get('bicycle')?.relation).not.toBe('hyponym'); // not motorised: at most a relative
  });

  it('scores near relatives by Wu–Palmer, below the thing itself, and nothing for what no label is near', () => {
    const macaque = wn.conceptTargets('macaque');
    expect(macaque[0]).toMatchObject({ label: 'macaque', weight: 1 });
    const langur = macaque.find((t) => t.label === 'langur')!;
    expect(langur.relation).toBe('sibling');
    expect(langur.weight).toBeGreaterThan(0.15);
    // a langur is not a macaque: seen for certain, it still stays under medium confidence
    expect(langur.weight).toBeLessThan(SEARCH_CONFIDENCE.medium);
    // a kangaroo's nearest labels are wallabies; a cousin far up the tree (a dog) is not offered
    const kangaroo = new Map(wn.conceptTargets('kangaroo').map((t) => [t.label, t.weight]));
    expect(kangaroo.get('wallaby')).toBeGreaterThan(0.8);
    expect(kangaroo.has('dog')).toBe(false);
    expect(wn.conceptTargets('unicorn')).toEqual([]);
    expect(wn.conceptTargets('iceberg')).toEqual([]);
  });

  it('reads glosses when the taxonomy has nothing close: a young animal finds its kind, a shore its water', () => {
    // WordNet files 'kitten' under young mammal, not cat; its gloss says "young domestic cat"
    expect(wn.conceptTargets('kitten')[0]).toMatchObject({ label: 'cat', relation: 'gloss' });
    expect(wn.conceptTargets('foal')[0]).toMatchObject({ label: 'horse', relation: 'gloss' });
    expect(wn.conceptTargets('seaside')[0]).toMatchObject({ label: 'seashore' });
    expect(wn.conceptTargets('ocean').map((t) => t.label)).toContain('seashore');
    expect(wn.conceptTargets('mountain').map((t) => t.label)).toEqual(expect.arrayContaining(['alp', 'volcano']));
  });
});

describe('compositional scoring', () => {
  const concept = (text: string, targets: Record<string, number>, extra: Partial<ResolvedConcept> = {}): ResolvedConcept => ({
    text,
    targets: new Map(Object.entries(targets)),
    direct: new Set(Object.keys(targets)),
    general: new Set(),
    literals: [text],
    colours: [],
    isColour: false,
    optional: false,
    ...extra,
  });
  const frame = (objects: Array<[string, number]>, colours: Array<[string, number]> = [], ocr = '') => ({
    objects: objects.map(([label, score]) => ({ label, score })),
    classes: [],
    colours: colours.map(([name, fraction]) => ({ name, fraction })),
    ocr,
  });
  const kayakAndHeron = [concept('kayak', { canoe: 0.9 }), concept('heron', { 'little blue heron': 0.9 })];

  it('ranks a moment holding every concept above one holding some, which still appears, lower', () => {
    const both = queryScore(
      frame([
        ['canoe', 0.8],
        ['little blue heron', 0.7],
      ]),
      kayakAndHeron,
    );
    const one = queryScore(frame([['canoe', 0.9]]), kayakAndHeron);
    expect(both).toBeGreaterThan(0.6);
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan(0.3);
    expect(queryScore(frame([['sofa', 0.9]]), kayakAndHeron)).toBe(0);
  });

  it('looks for a bound colour on the object itself: a yellow lorry on grey tarmac beats a red one before a yellow wall', () => {
    const lorry = [concept('lorry', { truck: 0.8 }, { colours: ['yellow'] })];
    const box = [0.2, 0.2, 0.8, 0.8];
    const yellowLorry = queryScore(
      {
        ...frame(
          [],
          [
            ['grey', 0.7],
            ['yellow', 0.2],
          ],
        ),
        objects: [{ label: 'truck', score: 0.9, box, colours: [{ name: 'yellow', fraction: 0.8 }] }],
      },
      lorry,
    );
    const redLorry = queryScore(
      {
        ...frame(
          [],
          [
            ['yellow', 0.6],
            ['red', 0.3],
          ],
        ),
        objects: [{ label: 'truck', score: 0.9, box, colours: [{ name: 'red', fraction: 0.9 }] }],
      },
      lorry,
    );
    expect(yellowLorry).toBeGreaterThan(redLorry);
    // an index made before objects had colours of their own falls back on the frame's
    const old = queryScore(frame([['truck', 0.9]], [['yellow', 0.6]]), lorry);
    expect(old).toBeGreaterThan(redLorry);
  });

  it('prefers the frame where the bound colour is there, and counts what the detector counted', () => {
    const lorry = [concept('lorry', { truck: 0.8 }, { colours: ['yellow'] })];
    const yellow = queryScore(frame([['truck', 0.9]], [['yellow', 0.4]]), lorry);
    const grey = queryScore(frame([['truck', 0.9]], [['grey', 0.6]]), lorry);
    expect(yellow).toBeGreaterThan(grey);
    const threeGoats = [concept('goat', { ibex: 0.9 }, { count: 3 })];
    const three = queryScore(
      frame([
        ['ibex', 0.8],
        ['ibex', 0.7],
        ['ibex', 0.6],
      ]),
      threeGoats,
    );
    const one = queryScore(frame([['ibex', 0.8]]), threeGoats);
    expect(three).toBeGreaterThan(one);
  });

  it('counts a more general label less when the classifier confidently names something the query is not', () => {
    const puffin = [concept('puffin', { bird: 0.8, 'king penguin': 0.2 }, { direct: new Set(), general: new Set(['bird']) })];
    const bare = queryScore(frame([['bird', 0.9]]), puffin);
    const named = queryScore({ ...frame([['bird', 0.9]]), classes: [{ label: 'vulture', score: 0.85 }] }, puffin);
    expect(bare).toBeGreaterThan(0.6);
    expect(named).toBeLessThan(0.3);
  });

  it('lets a word no label stands for count when it is read on screen, without requiring it', () => {
    const q = [concept('kayak', { canoe: 0.9 }), concept('regatta', {}, { optional: true })];
    const seen = queryScore(frame([['canoe', 0.8]]), q);
    const readToo = queryScore(frame([['canoe', 0.8]], [], 'regatta 2026'), q);
    expect(seen).toBeGreaterThan(0.6);
    expect(readToo).toBeGreaterThanOrEqual(seen * 0.95);
  });
});
