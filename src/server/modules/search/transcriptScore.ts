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
  return scanTsvector(tsv, null).positions;
}

/** A segment as BM25 needs it: its length in words, and the positions of the wanted lexemes it holds. */
export interface ScannedSegment {
  /** Positions counted over all lexemes (a lexeme without positions counts once). */
  length: number;
  positions: Map<string, number[]>;
}

const QUOTE = 39; // '
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;

/**
 * Reads a tsvector's text output in one pass: lexemes are quoted, with quotes and backslashes
 * doubled, each optionally followed by ':' and comma-separated positions (a weight letter may follow
 * a position). Only the lexemes in `wanted` (all when null) are kept with their positions; the rest
 * are only counted. A search scores hundreds of segments a request, and a regular expression with a
 * Map for every lexeme took a fifth of the server's thread.
 */
export function scanTsvector(tsv: string, wanted: ReadonlySet<string> | null): ScannedSegment {
  const positions = new Map<string, number[]>();
  let length = 0;
  let i = 0;
  const n = tsv.length;
  while (i < n) {
    while (i < n && tsv.charCodeAt(i) !== QUOTE) i++;
    if (i >= n) break;
    // the lexeme: up to a quote that is not doubled
    let start = ++i;
    let lexeme = '';
    while (i < n) {
      const c = tsv.charCodeAt(i);
      if ((c === QUOTE || c === BACKSLASH) && tsv.charCodeAt(i + 1) === c) {
        lexeme += tsv.slice(start, i + 1);
        i += 2;
        start = i;
      } else if (c === QUOTE) break;
      else i++;
    }
    lexeme += tsv.slice(start, i);
    i++; // closing quote
    const keep = wanted === null || wanted.has(lexeme);
    const list: number[] | null = keep ? [] : null;
    let count = 0;
    if (tsv.charCodeAt(i) === COLON) {
      i++;
      for (;;) {
        let value = 0;
        let digits = 0;
        for (let c = tsv.charCodeAt(i); c >= 48 && c <= 57; c = tsv.charCodeAt(++i)) {
          value = value * 10 + (c - 48);
          digits++;
        }
        while (i < n && tsv.charCodeAt(i) >= 65 && tsv.charCodeAt(i) <= 68) i++; // weight A-D
        if (digits) {
          count++;
          list?.push(value);
        }
        if (tsv.charCodeAt(i) !== COMMA) break;
        i++;
      }
    }
    length += Math.max(1, count);
    if (list) positions.set(lexeme, list);
  }
  return { length, positions };
}

/** `query`: the query's lexemes in the order said. `tsv`: the segment's tsvector as text. */
export function transcriptScore(query: string[], tsv: string, stats: TranscriptStats): number {
  const lexemes = [...new Set(query)];
  if (!lexemes.length) return 0;
  const scanned = scanTsvector(tsv, new Set(lexemes));
  const doc = scanned.positions;
  const length = Math.max(1, scanned.length);
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
