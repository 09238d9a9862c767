import fs from 'node:fs';
import path from 'node:path';
import { requireFiles } from './onnx';

export const CLIP_TOKENIZER_FILES = ['clip-tokenizer/vocab.json', 'clip-tokenizer/merges.txt'] as const;

export const SOT = 49406;
export const EOT = 49407;
export const CONTEXT = 77;

/** CLIP's pre-tokeniser (OpenAI's `pat`, case-insensitive): special tokens, contractions, letter runs, single digits, other runs. */
const PATTERN = /<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|\p{L}+|\p{N}|[^\s\p{L}\p{N}]+/giu;

/** GPT-2/CLIP's reversible byte -> printable character table. */
function bytesToUnicode(): string[] {
  const bs: number[] = [];
  for (let b = 33; b <= 126; b++) bs.push(b);
  for (let b = 161; b <= 172; b++) bs.push(b);
  for (let b = 174; b <= 255; b++) bs.push(b);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  const table: string[] = new Array(256);
  bs.forEach((b, i) => (table[b] = String.fromCharCode(cs[i])));
  return table;
}

/** The standard CLIP byte-level BPE tokenizer over `clip-tokenizer/vocab.json` and `merges.txt`. */
export class ClipTokenizer {
  private readonly byteChars = bytesToUnicode();
  private readonly cache = new Map<string, number[]>();

  private constructor(
    private readonly vocab: Map<string, number>,
    private readonly ranks: Map<string, number>,
  ) {}

  /** Reads the tokenizer files from `modelsDir`; throws ModelMissingError naming absent files. */
  static load(modelsDir: string): ClipTokenizer {
    requireFiles(modelsDir, 'clip tokenizer', CLIP_TOKENIZER_FILES);
    const vocab = new Map(
      Object.entries(JSON.parse(fs.readFileSync(path.join(modelsDir, CLIP_TOKENIZER_FILES[0]), 'utf8')) as Record<string, number>),
    );
    const lines = fs.readFileSync(path.join(modelsDir, CLIP_TOKENIZER_FILES[1]), 'utf8').split('\n');
    // As OpenAI's loader: skip the '#version' line, keep the 49152 - 256 - 2 merges the vocabulary was built from.
    const ranks = new Map<string, number>();
    lines.slice(1, 49152 - 256 - 2 + 1).forEach((l, i) => {
      if (l) ranks.set(l, i);
    });
    return new ClipTokenizer(vocab, ranks);
  }

  /** Token ids of `text` without the start/end tokens. */
  tokens(text: string): number[] {
    const clean = decodeEntities(text).replace(/\s+/g, ' ').trim().toLowerCase();
    const ids: number[] = [];
    for (const m of clean.matchAll(PATTERN)) {
      const word = m[0];
      if (word === '<|startoftext|>' || word === '<|endoftext|>') {
        ids.push(word === '<|startoftext|>' ? SOT : EOT);
        continue;
      }
      const chars = [...Buffer.from(word, 'utf8')].map((b) => this.byteChars[b]).join('');
      ids.push(...this.bpe(chars));
    }
    return ids;
  }

  /** `input_ids` and `attention_mask` for the text tower: SOT, tokens, EOT, zero padding to 77 (long text is cut, EOT kept). */
  encode(text: string): { ids: Int32Array; mask: Int32Array } {
    const body = this.tokens(text).slice(0, CONTEXT - 2);
    const all = [SOT, ...body, EOT];
    const ids = new Int32Array(CONTEXT);
    const mask = new Int32Array(CONTEXT);
    all.forEach((t, i) => {
      ids[i] = t;
      mask[i] = 1;
    });
    return { ids, mask };
  }

  private bpe(token: string): number[] {
    const hit = this.cache.get(token);
    if (hit) return hit;
    let word = [...token];
    word[word.length - 1] += '</w>';
    while (word.length > 1) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < word.length - 1; i++) {
        const r = this.ranks.get(`${word[i]} ${word[i + 1]}`);
        if (r !== undefined && r < bestRank) {
          bestRank = r;
          best = i;
        }
      }
      if (best < 0) break;
      // Merge every occurrence of the best pair, left to right, as the reference implementation does.
      const [a, b] = [word[best], word[best + 1]];
      const merged: string[] = [];
      for (let i = 0; i < word.length; i++) {
        if (i < word.length - 1 && word[i] === a && word[i + 1] === b) {
          merged.push(a + b);
          i++;
        } else merged.push(word[i]);
      }
      word = merged;
    }
    const ids = word.map((piece) => this.vocab.get(piece) ?? 0);
    if (this.cache.size < 10_000) this.cache.set(token, ids);
    return ids;
  }
}

/** html.unescape for the entities queries actually contain (CLIP's basic_clean runs it). */
function decodeEntities(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return named[e.toLowerCase()] ?? m;
  });
}
