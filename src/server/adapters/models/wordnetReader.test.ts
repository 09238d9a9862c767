import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelMissingError } from './types';
import { WordNetReader } from './wordnetReader';

// The database alone: what a synset holds and how a word reaches it. Ranking is wordnet.test.ts's.
describe('WordNet reader', () => {
  const wn = new WordNetReader();
  const first = (lemma: string) => wn.senses(lemma)[0]!;

  it("reads a lemma's senses, most frequent first, and a synset's synonyms and gloss", () => {
    expect(wn.senses('dog').length).toBeGreaterThan(1);
    const dog = wn.synset(first('dog'));
    expect(dog.words.slice(0, 2)).toEqual(['dog', 'domestic dog']);
    expect(dog.gloss).toMatch(/domesticated/);
    expect(wn.synonyms('automobile')).toEqual(expect.arrayContaining(['car', 'auto', 'automobile', 'motorcar']));
    expect(wn.senses('zzqx')).toEqual([]);
    expect(wn.synonyms('zzqx')).toEqual([]);
  });

  it('walks hypernyms up and hyponyms down, each the inverse of the other', () => {
    const dog = first('dog');
    const up = wn.hypernyms(dog).flatMap((s) => s.words);
    expect(up).toEqual(expect.arrayContaining(['canine', 'domestic animal']));
    const down = wn.hyponyms(dog);
    expect(down.flatMap((s) => s.words)).toEqual(expect.arrayContaining(['puppy', 'poodle']));
    for (const kind of down) expect(kind.parents).toContain(dog);
    for (const parent of wn.hypernyms(dog)) expect(parent.children).toContain(dog);
    expect(wn.ancestors(dog).flatMap((s) => s.words)).toEqual(expect.arrayContaining(['mammal', 'animal', 'entity']));
    const distances = wn.ancestorDistances(dog);
    expect(distances.get(dog)).toBe(0);
    expect(wn.depth(first('entity'))).toBe(1);
    expect(wn.depth(dog)).toBeGreaterThan(wn.depth(first('animal')));
  });

  it('turns plurals into the base forms WordNet knows, and finds collocations and adjectives', () => {
    expect(wn.baseForms('horses')).toContain('horse');
    expect(wn.baseForms('people')).toContain('person');
    expect(wn.baseForms('knives')).toContain('knife');
    expect(wn.baseForms('buses')).toContain('bus');
    expect(wn.baseForms('puppies')).toContain('puppy');
    expect(wn.baseForms('glass')).toEqual(['glass']); // not "glas"
    expect(wn.nounLemma('sea lions')).toBe('sea lion');
    expect(wn.nounLemma('zzqx')).toBeNull();
    expect(wn.isAdjective('wild')).toBe(true);
    expect(wn.isAdjective('giraffe')).toBe(false);
    expect(wn.senseCounts('dog').get(first('dog'))).toBeGreaterThan(0);
  });

  it('names the file it lacks', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'wordnet-'));
    try {
      const missing = new WordNetReader(empty);
      expect(() => missing.senses('dog')).toThrow(ModelMissingError);
      expect(() => missing.senses('dog')).toThrow(/index\.noun/);
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });
});
