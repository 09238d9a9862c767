import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTsvector, scanTsvector, transcriptScore } from './transcriptScore';

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
