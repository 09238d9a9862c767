import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelMissingError } from './types';
import { WordNetLexicon } from './wordnetLexicon';

// Every part of speech and the relations query expansion follows (issue 40).
describe('WordNet lexicon', () => {
  const wn = new WordNetLexicon();
  const rel = (word: string) => new Map(wn.related(word).map((r) => [r.text, r.relation]));

  it('reduces words to their lemmas in each part of speech, irregular verbs included', () => {
    expect(wn.baseForms('scorched', 'v')).toEqual(['scorch']);
    expect(wn.baseForms('bought', 'v')).toEqual(['buy']);
    expect(wn.baseForms('loaves', 'n')).toEqual([]); // noun exceptions are the noun reader's
    expect(wn.baseForms('doctors', 'n')).toEqual(['doctor']);
    expect(wn.baseForms('happier', 'a')).toEqual(['happy']);
  });

  it('relates words through synonyms, hyponyms, hypernyms, similar adjectives and derivations', () => {
    const physician = rel('physician');
    expect(physician.get('doctor')).toBe('synonym');
    expect(physician.get('surgeon')).toBe('hyponym');
    expect(rel('beverage').get('coffee')).toBe('hyponym');
    expect(rel('loaf').get('bread')).toBe('hypernym');
    expect(rel('baker').get('bake')).toBe('derivation');
    expect(rel('fast').get('quick')).toBeDefined();
    expect([...rel('wet').values()]).toContain('similar');
    // names are not kinds: no instance hyponyms (a person called Down is no doctor)
    expect(rel('doctor').has('down')).toBe(false);
    expect(rel('doctor').has('doctor')).toBe(false);
  });

  it('knows collocations in every part of speech, and orders senses by use', () => {
    expect(wn.isCollocation('ice cream')).toBe(true);
    expect(wn.isCollocation('touch down')).toBe(true);
    expect(wn.isCollocation('cream ice')).toBe(false);
    // 'loaf' is bread before it is idling: the noun's senses come first
    expect(wn.related('loaf')[0]).toMatchObject({ text: 'loaf of bread', sense: 0 });
  });

  it('names a missing dictionary file', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'wordnet-'));
    try {
      expect(() => new WordNetLexicon(empty).load()).toThrow(ModelMissingError);
      expect(() => new WordNetLexicon(empty).load()).toThrow(/index\.noun/);
      // the check the server makes at boot, reading nothing: the first file missing
      expect(() => new WordNetLexicon(empty).check()).toThrow(/index\.noun/);
      for (const f of fs.readdirSync(wn.dir)) fs.symlinkSync(path.join(wn.dir, f), path.join(empty, f));
      expect(() => new WordNetLexicon(empty).check()).not.toThrow();
      fs.rmSync(path.join(empty, 'index.sense'));
      expect(() => new WordNetLexicon(empty).check()).toThrow(/index\.sense/);
    } finally {
      fs.rmSync(empty, { recursive: true });
    }
  });
});
