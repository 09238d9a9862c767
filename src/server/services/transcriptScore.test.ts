import { describe, expect, it } from 'vitest';
import { parseTsvector, transcriptScore } from './transcriptScore';

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
