import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR, removeDir, tempDir } from '../../../../tests/fixtures/modelsDir';
import { EMBED_DIM, writeTinyClip } from '../../../../tests/fixtures/tinyClip';
import { ClipImageEncoder, ClipTextEncoder, clipMissing } from './clip';
import { ClipTokenizer, CONTEXT, EOT, SOT } from './clipTokenizer';
import { cosine, decodeRgb } from './image';
import { createTextEncoder, createVisualAnalyzer } from './index';

const solid = async (r: number, g: number, b: number) =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();

describe('CLIP tokenizer', () => {
  const tok = ClipTokenizer.load(MODELS_DIR);

  it('matches the reference ids for "a photo of a cat"', () => {
    const { ids, mask } = tok.encode('a photo of a cat');
    expect([...ids.slice(0, 7)]).toEqual([49406, 320, 1125, 539, 320, 2368, 49407]);
    expect(ids).toHaveLength(CONTEXT);
    expect([...ids.slice(7)].every((x) => x === 0)).toBe(true);
    expect(mask.reduce((a, b) => a + b, 0)).toBe(7);
  });

  it('lower-cases, splits punctuation and cuts long text keeping the end token', () => {
    expect(tok.tokens('A DOG!')).toEqual(tok.tokens('a dog !'));
    expect(tok.tokens('a dog')).toEqual([320, 1929]);
    const long = tok.encode('dog '.repeat(200));
    expect(long.ids[0]).toBe(SOT);
    expect(long.ids[CONTEXT - 1]).toBe(EOT);
  });
});

describe('CLIP adapter on a generated model with the real signature', () => {
  let dir: string;
  let tok: ClipTokenizer;

  beforeAll(() => {
    dir = tempDir('clip');
    tok = ClipTokenizer.load(MODELS_DIR);
    // Point the words red, green and blue at the colour channels the tiny image tower reports.
    const [red, green, blue] = ['red', 'green', 'blue'].map((w) => tok.tokens(w)[0]);
    writeTinyClip(dir, { concepts: { [red]: 0, [green]: 1, [blue]: 2 } });
    fs.mkdirSync(path.join(dir, 'clip-tokenizer'));
    for (const f of ['vocab.json', 'merges.txt'])
      fs.symlinkSync(path.join(MODELS_DIR, 'clip-tokenizer', f), path.join(dir, 'clip-tokenizer', f));
  });
  afterAll(() => removeDir(dir));

  it('embeds a batch of two images and ranks them for a text query', async () => {
    const images = await ClipImageEncoder.open(dir);
    const text = await ClipTextEncoder.open(dir);
    try {
      const t = performance.now();
      const [red, blue] = await images.embed([await decodeRgb(await solid(230, 20, 20)), await decodeRgb(await solid(20, 40, 230))]);
      const imageMs = (performance.now() - t) / 2;
      expect(red).toHaveLength(EMBED_DIM);
      expect(Math.hypot(...red)).toBeCloseTo(1, 5);
      const t2 = performance.now();
      const q = await text.embed('red');
      const textMs = performance.now() - t2;
      expect(q).toHaveLength(EMBED_DIM);
      expect(Math.hypot(...q)).toBeCloseTo(1, 5);
      expect(cosine(q, red)).toBeGreaterThan(0.5);
      expect(cosine(q, red)).toBeGreaterThan(cosine(q, blue) + 0.5);
      const qb = await text.embed('blue');
      expect(cosine(qb, blue)).toBeGreaterThan(cosine(qb, red));
      console.log(
        `[timing] CLIP (tiny stand-in model): ${imageMs.toFixed(1)} ms per image incl. preprocessing, ${textMs.toFixed(1)} ms per text`,
      );
    } finally {
      await images.close();
      await text.close();
    }
  });

  it('runs one image at a time when the visual tower fixes its batch at 1, with the same results', async () => {
    const fixed = tempDir('clip-fixed');
    try {
      writeTinyClip(fixed, { visualBatch: 1 });
      const one = await ClipImageEncoder.open(fixed);
      const many = await ClipImageEncoder.open(dir);
      const imgs = [
        await decodeRgb(await solid(200, 30, 30)),
        await decodeRgb(await solid(30, 200, 30)),
        await decodeRgb(await solid(30, 30, 200)),
      ];
      const a = await one.embed(imgs);
      const b = await many.embed(imgs);
      expect(a).toHaveLength(3);
      a.forEach((v, i) => expect(cosine(v, b[i])).toBeCloseTo(1, 5));
      await Promise.all([one.close(), many.close()]);
    } finally {
      removeDir(fixed);
    }
  });

  it('joins the visual analyzer and the text encoder when the pair is present', async () => {
    const models = tempDir('clip-full');
    try {
      for (const f of ['yolox_nano.onnx', 'coco80_labels.txt', 'mobilenetv2-12-int8-embed.onnx', 'imagenet1k_labels.tsv'])
        fs.symlinkSync(path.join(MODELS_DIR, f), path.join(models, f));
      for (const f of ['textual_quant.onnx', 'visual_quant.onnx', 'clip-tokenizer'])
        fs.symlinkSync(path.join(dir, f), path.join(models, f));
      const analyzer = await createVisualAnalyzer(models, { ocr: 'off' });
      const encoder = await createTextEncoder(models);
      try {
        expect(analyzer.capabilities).toContain('clip');
        expect(encoder.available).toBe(true);
        const [f] = await analyzer.analyze([await solid(230, 20, 20)]);
        expect(f.clip).toHaveLength(EMBED_DIM);
        expect(cosine((await encoder.embed('red'))!, f.clip!)).toBeGreaterThan(0.5);
      } finally {
        await analyzer.close();
        await encoder.close();
      }
    } finally {
      removeDir(models);
    }
  });

  it('says CLIP is off, naming the files, where MODELS_DIR lacks the pair', async () => {
    expect(clipMissing(MODELS_DIR)).toBe('clip: textual_quant.onnx, visual_quant.onnx not in MODELS_DIR');
    const encoder = await createTextEncoder(MODELS_DIR);
    expect(encoder.available).toBe(false);
    expect(await encoder.embed('red')).toBeNull();
    expect(encoder.reason).toContain('textual_quant.onnx');
  });
});
