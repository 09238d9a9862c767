/**
 * How strongly a keyframe shows a word, from what the visual models saw. Shared by ingest (which
 * stores each shot's best score per word, the index text search starts from) and search (which
 * scores candidate keyframes exactly), so both read the evidence the same way.
 */
export interface FrameLabels {
  objects: unknown;
  classes: unknown;
  colours: unknown;
  ocr: string;
}

export interface Evidence {
  label: string;
  score: number;
  /** Whether the label's hypernyms and synonyms count too (not for colours and on-screen words). */
  expand: boolean;
}

/** A hypernym or synonym match counts a little less than the label itself. */
export const EXPANDED_MATCH = 0.85;

/** Below this a word is not worth a row in the shot index. */
export const MIN_TERM_SCORE = 0.05;

/**
 * Every label of a keyframe as evidence. Detected objects count by their prominence (box size), so
 * a dog filling the frame beats a small dog in a crowd; colours by how much of the frame they fill.
 */
export function evidenceOf(frame: FrameLabels): Evidence[] {
  const prominence = (box?: number[]) => {
    if (!box) return 1;
    const area = Math.max(0, (box[2]! - box[0]!) * (box[3]! - box[1]!));
    return 0.6 + 0.4 * Math.min(1, Math.sqrt(area) / 0.5);
  };
  return [
    ...(frame.objects as Array<{ label: string; score: number; box?: number[] }>).map((o) => ({
      label: o.label,
      score: o.score * prominence(o.box),
      expand: true,
    })),
    ...(frame.classes as Array<{ label: string; score: number }>).map((c) => ({ label: c.label, score: c.score, expand: true })),
    // colours and on-screen words are matched as they are: WordNet senses of 'grey' are not wanted
    ...(frame.colours as Array<{ name: string; fraction: number }>).map((c) => ({
      label: c.name,
      score: Math.min(1, c.fraction * 2),
      expand: false,
    })),
    ...frame.ocr
      .split(' ')
      .filter(Boolean)
      .map((w) => ({ label: w, score: 1, expand: false })),
  ];
}

/**
 * A keyframe's on-screen words as the index stores them (its `ocr` text): lower-case, each word as
 * read and, for a run-together one, the words it is made of, so "PLATFORMNINE" is found by
 * "platform nine" as well as by itself.
 */
export function ocrIndexWords(text: ReadonlyArray<{ word: string; parts?: string[] }>): string[] {
  return [...new Set(text.flatMap((w) => [w.word.toLowerCase(), ...(w.parts ?? []).map((p) => p.toLowerCase())]))];
}

export const wordsOf = (label: string) =>
  label
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * How well the keyframe shows each query word (given as its forms: 'horses' -> horses, horse):
 * every label that is, or expands to, one of the forms is evidence, combined as a noisy-OR; the
 * words' scores are averaged.
 */
export function frameScore(evidence: Evidence[], words: Array<{ forms: string[] }>, expanded: (label: string) => Set<string>): number {
  let total = 0;
  for (const w of words) {
    let miss = 1;
    for (const l of evidence) {
      const own = wordsOf(l.label);
      let s = 0;
      if (w.forms.some((f) => own.includes(f))) s = l.score;
      else if (l.expand && w.forms.some((f) => expanded(l.label).has(f))) s = l.score * EXPANDED_MATCH;
      miss *= 1 - Math.min(0.999, s);
    }
    total += 1 - miss;
  }
  return total / Math.max(1, words.length);
}

/** The score a keyframe gives each single word it can be found by (frameScore of that word alone). */
export function termScores(evidence: Evidence[], expanded: (label: string) => Set<string>): Map<string, number> {
  const miss = new Map<string, number>();
  for (const l of evidence) {
    const own = new Set(wordsOf(l.label));
    const s = new Map<string, number>();
    for (const w of own) s.set(w, l.score);
    if (l.expand) for (const w of expanded(l.label)) if (!own.has(w)) s.set(w, l.score * EXPANDED_MATCH);
    for (const [w, v] of s) miss.set(w, (miss.get(w) ?? 1) * (1 - Math.min(0.999, v)));
  }
  const out = new Map<string, number>();
  for (const [w, m] of miss) if (1 - m >= MIN_TERM_SCORE) out.set(w, 1 - m);
  return out;
}

/** A shot's best score per word over its keyframes: what the shot index stores. */
export function shotTermScores(frames: FrameLabels[], expanded: (label: string) => Set<string>): Map<string, number> {
  const best = new Map<string, number>();
  for (const f of frames) for (const [w, s] of termScores(evidenceOf(f), expanded)) if (s > (best.get(w) ?? 0)) best.set(w, s);
  return best;
}

/** A label's expansion (WordNet synonyms and hypernyms) as a set of words, cached per label. */
export function cachedExpander(expandLabel: (label: string) => string[]): (label: string) => Set<string> {
  const cache = new Map<string, Set<string>>();
  return (label) => {
    let s = cache.get(label);
    if (!s) {
      s = new Set(expandLabel(label).flatMap(wordsOf));
      cache.set(label, s);
    }
    return s;
  };
}
