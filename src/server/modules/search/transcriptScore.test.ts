import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_CONFIDENCE } from '../../../contract';
import {
  NEGATION_MISMATCH,
  parseTsvector,
  scanTsvector,
  transcriptMatch,
  transcriptScore,
  wordsMatching,
  type TranscriptPlan,
  type TranscriptTerm,
} from './transcriptScore';

const stats = {
  segments: 10_000,
  avgLength: 8,
  df: new Map([
    ['lighthous', 12],
    ['keeper', 40],
    ['fog', 30],
    ['today', 900],
  ]),
};

describe('transcript scoring (BM25 with phrase proximity)', () => {
  it("reads Postgres's tsvector text", () => {
    expect(parseTsvector("'fog':3 'keeper':5,9 'o''brien':1")).toEqual(
      new Map([
        ['fog', [3]],
        ['keeper', [5, 9]],
        ["o'brien", [1]],
      ]),
    );
  });

  it('reads weights, stripped lexemes, doubled quotes and backslashes, and keeps only the wanted lexemes', () => {
    const tsv = "'a''b':2A,7 'back\\\\slash':4 'bare' 'fog':1B,3,12D";
    expect(parseTsvector(tsv)).toEqual(
      new Map([
        ["a'b", [2, 7]],
        ['back\\slash', [4]],
        ['bare', []],
        ['fog', [1, 3, 12]],
      ]),
    );
    const only = scanTsvector(tsv, new Set(['fog', 'missing']));
    expect(only.positions).toEqual(new Map([['fog', [1, 3, 12]]]));
    // 2 + 1 + 1 (no positions counts once) + 3
    expect(only.length).toBe(7);
  });

  it('reads any tsvector Postgres writes as its lexemes and positions', () => {
    const lexeme = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom('a', 'z', "'", '\\', ' ', ':', ',', '1', 'é') });
    const entry = fc.tuple(
      lexeme,
      fc.array(fc.tuple(fc.integer({ min: 1, max: 16383 }), fc.constantFrom('', 'A', 'B', 'C')), { maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 6 }), (entries) => {
        // as tsvectorout writes it: quotes and backslashes doubled, positions after a colon
        const text = entries
          .map(
            ([l, ps]) =>
              `'${l.replace(/'/g, "''").replace(/\\/g, '\\\\')}'${ps.length ? ':' + ps.map(([p, w]) => `${p}${w}`).join(',') : ''}`,
          )
          .join(' ');
        const scanned = scanTsvector(text, null);
        expect(scanned.positions).toEqual(new Map(entries.map(([l, ps]) => [l, ps.map(([p]) => p)])));
        expect(scanned.length).toBe(entries.reduce((n, [, ps]) => n + Math.max(1, ps.length), 0));
      }),
    );
  });

  it('scores a segment saying every word, together and in order, near 1 and above the same words scattered', () => {
    const q = ['lighthous', 'keeper'];
    const phrase = transcriptScore(q, "'lighthous':4 'keeper':5 'said':6", stats);
    const scattered = transcriptScore(q, "'lighthous':1 'said':2 'keeper':12 'road':14", stats);
    expect(phrase).toBeGreaterThan(0.9);
    expect(scattered).toBeLessThan(phrase);
    expect(scattered).toBeGreaterThan(0.3);
  });

  it('keeps a segment with only a common word of the query low', () => {
    const q = ['lighthous', 'keeper', 'fog', 'today'];
    const common = transcriptScore(q, "'today':2 'went':3", stats);
    expect(common).toBeGreaterThan(0);
    expect(common).toBeLessThan(0.15);
    // the rare words carry the score: two of the three rare ones, together
    expect(transcriptScore(q, "'lighthous':1 'keeper':2", stats)).toBeGreaterThan(0.4);
    expect(transcriptScore(q, "'went':1", stats)).toBe(0);
  });
});

describe('transcript scoring through related words (issue 40)', () => {
  const meaningStats = {
    segments: 10_000,
    avgLength: 8,
    df: new Map([
      ['physician', 5],
      ['doctor', 80],
      ['bought', 60],
      ['automobil', 3],
      ['car', 200],
      ['loaf', 4],
      ['bread', 50],
    ]),
  };
  const term = (
    lexemes: string[],
    slot: number,
    weight: number,
    relation: TranscriptTerm['relation'],
    from: string,
    said: string,
  ): TranscriptTerm => ({
    lexemes,
    offsets: lexemes.map((_, i) => i + 1),
    slots: [slot],
    weight,
    relation,
    from,
    said,
  });
  // 'a physician bought an automobile'
  const plan: TranscriptPlan = {
    query: ['physician', 'bought', 'automobil'],
    terms: [
      term(['doctor'], 0, 0.85, 'synonym', 'physician', 'doctor'),
      term(['car'], 2, 0.85, 'synonym', 'automobile', 'car'),
      term(['motor', 'vehicl'], 2, 0.55, 'hypernym', 'automobile', 'motor vehicle'),
    ],
    negated: false,
  };
  const strong = 0.7;

  it('finds the same thing said in other words, below the words themselves, with the reasons', () => {
    const exact = transcriptMatch(plan, "'physician':2 'bought':3 'automobil':5", meaningStats, { strong });
    const other = transcriptMatch(plan, "'doctor':2 'bought':3 'new':5 'car':6", meaningStats, { strong });
    expect(exact.score).toBeGreaterThan(0.8);
    expect(other.score).toBeGreaterThan(SEARCH_CONFIDENCE.high);
    expect(other.score).toBeLessThan(exact.score);
    expect(other.related.map((t) => t.said)).toEqual(['doctor', 'car']);
    expect(other.lexemes.sort()).toEqual(['bought', 'car', 'doctor']);
    expect(exact.related).toEqual([]);
    // without expansion the same segment holds one word of three
    expect(transcriptScore(plan.query, "'doctor':2 'bought':3 'new':5 'car':6", meaningStats)).toBeLessThan(other.score / 2);
  });

  it('matches a collocation only where its words stand together', () => {
    const together = transcriptMatch(plan, "'physician':1 'motor':3 'vehicl':4", meaningStats, { strong });
    const apart = transcriptMatch(plan, "'physician':1 'motor':3 'old':4 'vehicl':5", meaningStats, { strong });
    expect(together.related.map((t) => t.said)).toEqual(['motor vehicle']);
    expect(apart.related).toEqual([]);
    expect(together.score).toBeGreaterThan(apart.score);
  });

  it('never makes a match through weak relations alone high confidence', () => {
    const weak: TranscriptPlan = { query: ['loaf'], terms: [term(['bread'], 0, 0.55, 'hypernym', 'loaf', 'bread')], negated: false };
    const m = transcriptMatch(weak, "'bread':1", meaningStats, { strong });
    expect(m.score).toBeGreaterThan(0);
    expect(m.score).toBeLessThan(SEARCH_CONFIDENCE.high);
    // the same relation, counted as strong, would have been
    expect(transcriptMatch(weak, "'bread':1", meaningStats, { strong: 0.5 }).score).toBeGreaterThanOrEqual(SEARCH_CONFIDENCE.high);
  });

  it('ranks a segment saying the opposite of a negated query lower; a query without negation finds both alike', () => {
    const negated = { ...plan, negated: true };
    const tsv = "'doctor':2 'bought':3 'car':6";
    const same = transcriptMatch(negated, tsv, meaningStats, { strong, negated: true }).score;
    const opposite = transcriptMatch(negated, tsv, meaningStats, { strong, negated: false }).score;
    expect(opposite).toBeCloseTo(same * NEGATION_MISMATCH, 6);
    expect(transcriptMatch(plan, tsv, meaningStats, { strong, negated: true }).score).toBe(
      transcriptMatch(plan, tsv, meaningStats, { strong, negated: false }).score,
    );
  });

  it("finds the words of a segment's text that matched, as said", () => {
    expect(wordsMatching('The doctor bought a new car.', ['doctor', 'bought', 'car'])).toEqual(['doctor', 'bought', 'car']);
    expect(wordsMatching('Two doctors and three cities', ['doctor', 'citi'])).toEqual(['doctors', 'cities']);
    expect(wordsMatching('a careful cartoon', ['car'])).toEqual([]);
  });
});
