/**
 * Transcript scoring: Okapi BM25 over the query's stemmed words (Postgres's English lexemes),
 * expressed as a share of what a segment of average length holding each word once would score, so
 * 1 means "every word said" whatever the query; then times phrase proximity, so the words said
 * together, in a short span, beat the same words scattered. The result is on the contract's 0-1
 * scale (SEARCH_CONFIDENCE).
 */

import { SEARCH_CONFIDENCE } from '../../../contract';
import type { WordRelation } from '../ports';

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

/**
 * Something else a query word (or collocation) can be said as (queryExpansion.ts), as Postgres's
 * lexemes: one word, or a phrase of several at fixed distances ('medical practitioner').
 */
export interface TranscriptTerm {
  /** Its lexemes, and each one's position after the first (a stop word between counts). */
  lexemes: string[];
  offsets: number[];
  /** The query's lexemes (indices into TranscriptPlan.slots) it stands for. */
  slots: number[];
  weight: number;
  relation: WordRelation;
  /** The query's word and the related one, as written ('physician', 'doctor'): the reason shown. */
  from: string;
  said: string;
}

/** A transcript query: its lexemes in order, what else they can be said as, and whether it is negated. */
export interface TranscriptPlan {
  /** The query's lexemes in the order said (repeats kept). */
  query: string[];
  terms: TranscriptTerm[];
  negated: boolean;
}

/** The key a term is known by (its tsquery's text and its document frequency): 'medic<->practition'. */
export const termKey = (t: Pick<TranscriptTerm, 'lexemes' | 'offsets'>) =>
  t.lexemes.map((l, i) => (i ? `<${t.offsets[i]! - t.offsets[i - 1]!}>` : '') + l).join('');

/** A segment's score, and what matched beside the query's own words (the reasons). */
export interface TranscriptMatch {
  score: number;
  /** Lexemes that matched, the query's own and the related ones: what to highlight. */
  lexemes: string[];
  /** The relations a match went through: 'physician ≈ doctor'. */
  related: TranscriptTerm[];
}

/**
 * A negated query ('did not buy') against a segment that is not keeps this share of its score: it
 * says the opposite. The reverse costs nothing: a query that does not say 'not' may be asking for
 * either ('Mr Elinor 1984' finds "mister elinor won't wait till nineteen eighty four").
 */
export const NEGATION_MISMATCH = 0.8;

/** `query`: the query's lexemes in the order said. `tsv`: the segment's tsvector as text. */
export function transcriptScore(query: string[], tsv: string, stats: TranscriptStats): number {
  return transcriptMatch({ query, terms: [], negated: false }, tsv, stats).score;
}

/**
 * BM25 over the query's lexemes where each may also be matched through a related term, counting
 * its weight (the best of the word and its terms counts, with the word's own idf: the query asked
 * for that), then phrase proximity over where the matches stand. A segment matched only through
 * weak relations (weight below `strong`) stays under high confidence; a negated plan against a
 * segment that is not (`negated` false) costs NEGATION_MISMATCH.
 */
export function transcriptMatch(
  plan: TranscriptPlan,
  tsv: string,
  stats: TranscriptStats,
  o: { negated?: boolean; strong?: number } = {},
): TranscriptMatch {
  const none: TranscriptMatch = { score: 0, lexemes: [], related: [] };
  const { query } = plan;
  const lexemes = [...new Set(query)];
  if (!lexemes.length) return none;
  const wanted = new Set(lexemes);
  for (const t of plan.terms) for (const l of t.lexemes) wanted.add(l);
  const scanned = scanTsvector(tsv, wanted);
  const doc = scanned.positions;
  const length = Math.max(1, scanned.length);
  const idf = (l: string) => {
    const df = stats.df.get(l) ?? 0;
    return Math.log(1 + (stats.segments - df + 0.5) / (df + 0.5));
  };
  const norm = K1 * (1 - B + (B * length) / Math.max(1, stats.avgLength));
  const bm25 = (w: number, tf: number) => (w * tf * (K1 + 1)) / (tf + norm);
  /** Where each slot matched (its positions), and through which term (undefined: the word itself). */
  const at = new Map<string, number[]>();
  const through = new Map<number, TranscriptTerm>();
  const best = lexemes.map((l) => {
    const tf = doc.get(l)?.length ?? (doc.has(l) ? 1 : 0);
    if (tf) at.set(l, doc.get(l)!);
    return tf ? bm25(idf(l), tf) : 0;
  });
  for (const t of plan.terms) {
    const positions = termPositions(t, doc);
    if (!positions) continue;
    const tf = Math.max(1, positions.length);
    for (const slot of t.slots) {
      const c = t.weight * bm25(idf(lexemes[slot]!), tf);
      if (c > best[slot]!) {
        best[slot] = c;
        at.set(lexemes[slot]!, positions);
        through.set(slot, t);
      }
    }
  }
  let score = 0;
  let ideal = 0;
  lexemes.forEach((l, i) => {
    ideal += idf(l); // tf 1 in a segment of average length scores exactly idf
    score += best[i]!;
  });
  const share = ideal > 0 ? Math.min(1, score / ideal) : 0;
  if (share <= 0) return none;
  const present = lexemes.filter((l) => at.has(l));
  let result =
    present.length < 2
      ? lexemes.length < 2
        ? share
        : share * (1 - PROXIMITY_SHARE)
      : share * (1 - PROXIMITY_SHARE + PROXIMITY_SHARE * proximity(present, at, query));
  const strong = o.strong ?? 0;
  const anyStrong = present.some((l) => {
    const t = through.get(lexemes.indexOf(l));
    return !t || t.weight >= strong;
  });
  if (!anyStrong) result = Math.min(result, WEAK_CEILING);
  if (plan.negated && o.negated === false) result *= NEGATION_MISMATCH;
  const related = [...new Set(through.values())];
  const matched = new Set(present.filter((l) => !through.has(lexemes.indexOf(l))));
  for (const t of related) for (const l of t.lexemes) matched.add(l);
  return { score: result, lexemes: [...matched], related };
}

/** What a match through weak relations alone scores at most: just under high confidence. */
export const WEAK_CEILING = SEARCH_CONFIDENCE.high - 0.01;

/** Where a term stands in a segment (its first lexeme's positions), or null when it is not there. */
function termPositions(t: TranscriptTerm, doc: Map<string, number[]>): number[] | null {
  const first = doc.get(t.lexemes[0]!);
  if (!first) return null;
  if (t.lexemes.length === 1) return first;
  const rest = t.lexemes.slice(1).map((l) => doc.get(l));
  if (rest.some((r) => !r)) return null;
  // positions stripped: present is all that can be said
  if (!first.length) return [];
  const out = first.filter((p) => rest.every((r, i) => r!.includes(p + t.offsets[i + 1]! - t.offsets[0]!)));
  return out.length ? out : null;
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

/** What an English stem may leave off a word ('burn' of burned, 'citi' of cities as y, ies). */
const SUFFIX = /^(?:s|es|e|ed|d|ing|er|ers|est|ly|y|ies|ied|ier|iest|ment|ments|ness|ion|ions|ation|ations|al|ful|ity)$/;

/**
 * The words of a segment's text that Postgres would reduce to one of `lexemes` (what to highlight):
 * an English stem is the word or its start ('burned' -> burn, 'cities' -> citi), so a word matches a
 * lexeme it equals, or begins with it (a final i standing for y) and runs on by a suffix's length.
 */
export function wordsMatching(text: string, lexemes: string[]): string[] {
  if (!lexemes.length) return [];
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}]+(?:['\u2019][\p{L}]+)*/gu) ?? []) {
    const w = word.toLowerCase();
    const hit = lexemes.some((l) => {
      if (w === l) return true;
      if (l.length < 3) return false;
      if (w.startsWith(l) && SUFFIX.test(w.slice(l.length))) return true;
      return l.endsWith('i') && w.startsWith(l.slice(0, -1)) && SUFFIX.test(w.slice(l.length - 1));
    });
    if (hit && !out.includes(word)) out.push(word);
  }
  return out;
}
