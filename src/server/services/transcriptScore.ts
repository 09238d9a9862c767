/**
 * Transcript scoring: Okapi BM25 over the query's stemmed words (Postgres's English lexemes),
 * expressed as a share of what a segment of average length holding each word once would score, so
 * 1 means "every word said" whatever the query; then times phrase proximity, so the words said
 * together, in a short span, beat the same words scattered. The result is on the contract's 0-1
 * scale (SEARCH_CONFIDENCE).
 */

/** Okapi BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;
/** The share of a multi-word score that depends on the words being close. */
const PROXIMITY_SHARE = 0.4;

export interface TranscriptStats {
  /** Segments in the searched libraries. */
  segments: number;
  /** Their mean length in words. */
  avgLength: number;
  /** Segments holding each lexeme. */
  df: Map<string, number>;
}

/** A tsvector's text ("'dog':3 'run':5,7") as lexeme -> positions. */
export function parseTsvector(tsv: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of tsv.matchAll(/'((?:[^']|'')+)'(?::([\d,A-D]+))?/g)) {
    const positions = (m[2] ?? '')
      .split(',')
      .map((p) => parseInt(p, 10))
      .filter((p) => !Number.isNaN(p));
    out.set(m[1]!.replace(/''/g, "'"), positions);
  }
  return out;
}

/** `query`: the query's lexemes in the order said. `tsv`: the segment's tsvector as text. */
export function transcriptScore(query: string[], tsv: string, stats: TranscriptStats): number {
  const lexemes = [...new Set(query)];
  if (!lexemes.length) return 0;
  const doc = parseTsvector(tsv);
  const length = Math.max(
    1,
    [...doc.values()].reduce((n, p) => n + Math.max(1, p.length), 0),
  );
  const idf = (l: string) => {
    const df = stats.df.get(l) ?? 0;
    return Math.log(1 + (stats.segments - df + 0.5) / (df + 0.5));
  };
  const norm = K1 * (1 - B + (B * length) / Math.max(1, stats.avgLength));
  let score = 0;
  let ideal = 0;
  for (const l of lexemes) {
    const w = idf(l);
    ideal += w; // tf 1 in a segment of average length scores exactly idf
    const tf = doc.get(l)?.length ?? (doc.has(l) ? 1 : 0);
    if (tf) score += (w * tf * (K1 + 1)) / (tf + norm);
  }
  const share = ideal > 0 ? Math.min(1, score / ideal) : 0;
  if (share <= 0) return 0;
  const present = lexemes.filter((l) => doc.has(l));
  if (present.length < 2) return lexemes.length < 2 ? share : share * (1 - PROXIMITY_SHARE);
  return share * (1 - PROXIMITY_SHARE + PROXIMITY_SHARE * proximity(present, doc, query));
}

/**
 * 1 when the present words stand together in the query's order, falling as the shortest span
 * holding all of them grows (present words - 1 over the span).
 */
function proximity(present: string[], doc: Map<string, number[]>, query: string[]): number {
  const events = present.flatMap((l) => (doc.get(l) ?? []).map((p) => ({ p, l }))).sort((a, b) => a.p - b.p);
  if (!events.length) return 0.5; // positions stripped: nothing to say either way
  const need = present.length;
  const count = new Map<string, number>();
  let have = 0;
  let best = Infinity;
  let bestStart = 0;
  for (let lo = 0, hi = 0; hi < events.length; hi++) {
    const e = events[hi]!;
    count.set(e.l, (count.get(e.l) ?? 0) + 1);
    if (count.get(e.l) === 1) have++;
    while (have === need) {
      const span = e.p - events[lo]!.p;
      if (span < best) {
        best = span;
        bestStart = lo;
      }
      const f = events[lo++]!;
      count.set(f.l, count.get(f.l)! - 1);
      if (count.get(f.l) === 0) have--;
    }
  }
  if (!Number.isFinite(best)) return 0;
  let p = (need - 1) / Math.max(need - 1, best);
  // in the query's order counts fully; out of order, a little less
  const order = events
    .slice(bestStart)
    .filter((e) => e.p <= events[bestStart]!.p + best)
    .map((e) => query.indexOf(e.l));
  if (order.some((v, i) => i > 0 && v < order[i - 1]!)) p *= 0.8;
  return p;
}
