import { cardinalWord } from '../ingest/spokenForms';

/**
 * Free text -> the concepts a visual search looks for. Words are lower-cased and lemmatised;
 * WordNet's own collocations stay one concept ('sea lions' -> sea lion, 'traffic light'); colour
 * words and counts bind to the noun they describe ('a yellow bus', 'two men'); a colour with no
 * noun after it is a concept of its own ('something green'); another adjective before a noun
 * qualifies it rather than being a thing to find ('wild animals'). Pure: WordNet comes in as a Lexicon.
 */

/** What the parser needs from WordNet (the models adapter implements it). */
export interface Lexicon {
  /** The noun lemma of a word or collocation ('horses' -> horse, 'sea lions' -> sea lion), or null. */
  nounLemma(phrase: string): string | null;
  /** Whether the word is an adjective ('wild', 'striped'). */
  isAdjective(word: string): boolean;
}

export interface QueryConcept {
  /** The words as typed (after lower-casing), e.g. 'sea lions'. */
  text: string;
  /** The WordNet noun lemma, when the words are a noun WordNet knows. */
  lemma: string | null;
  /** Colours said of this thing ('yellow' in 'a yellow bus'); for a colour concept, the colour itself. */
  colours: string[];
  /** How many were asked for ('two men' -> 2). */
  count?: number;
  /** Other adjectives said of it ('wild' in 'wild animals'): kept, but not things to find. */
  modifiers?: string[];
  /** A bare colour ('green') rather than a thing. */
  isColour: boolean;
}

const STOPWORDS = new Set(
  (
    'a an and are as at be by for from has have in into is it its of on or over the their there this to under was were with ' +
    'without while near some any me show find where who what which i my our your one ones that these those'
  ).split(' '),
);
/** Words that say how many without a number ('several dogs'); number words are spokenForms.ts's. */
const QUANTIFIERS: Record<string, number> = { several: 2, many: 3 };
/** Longest collocation tried, in words ('man of war'). */
const MAX_COLLOCATION = 3;

export function parseQuery(text: string, lexicon: Lexicon, colourNames: readonly string[]): QueryConcept[] {
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9'-]+/)
    .map((w) => w.replace(/'s$/, '').replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean);
  const colours = new Set(colourNames.map((c) => c.toLowerCase()));
  const out: QueryConcept[] = [];
  let pendingColours: string[] = [];
  let pendingCount: number | undefined;
  let pendingModifiers: string[] = [];
  const mods = () => {
    const m = pendingModifiers;
    pendingModifiers = [];
    return m.length ? { modifiers: m } : {};
  };
  const flushColours = () => {
    for (const c of pendingColours) out.push({ text: c, lemma: null, colours: [c], isColour: true });
    pendingColours = [];
  };
  for (let i = 0; i < tokens.length;) {
    // A collocation WordNet knows is one concept, even when a word of it is a stop word ('man of war').
    let matched = 0;
    for (let n = Math.min(MAX_COLLOCATION, tokens.length - i); n >= 2; n--) {
      const words = tokens.slice(i, i + n);
      if (STOPWORDS.has(words[0]!) || STOPWORDS.has(words[n - 1]!)) continue;
      const phrase = words.join(' ');
      // 'dark blue' is a colour, not a thing
      if (colours.has(phrase)) {
        pendingColours.push(phrase);
        matched = n;
        break;
      }
      const lemma = lexicon.nounLemma(phrase);
      if (lemma) {
        out.push({ text: phrase, lemma, colours: pendingColours, count: pendingCount, isColour: false, ...mods() });
        pendingColours = [];
        pendingCount = undefined;
        matched = n;
        break;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    const w = tokens[i++]!;
    const count = /^\d+$/.test(w) ? Number(w) : (cardinalWord(w) ?? QUANTIFIERS[w]);
    if (count !== undefined && count > 1 && count < 100) pendingCount = count;
    else if (STOPWORDS.has(w)) continue;
    else if (colours.has(w)) pendingColours.push(w);
    else if (lexicon.isAdjective(w) && i < tokens.length && !STOPWORDS.has(tokens[i]!) && lexicon.nounLemma(tokens[i]!))
      pendingModifiers.push(w);
    else {
      out.push({ text: w, lemma: lexicon.nounLemma(w), colours: pendingColours, count: pendingCount, isColour: false, ...mods() });
      pendingColours = [];
      pendingCount = undefined;
    }
  }
  flushColours();
  return out;
}
