import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAudio16k, extractFrame, makeTestVideo, type TestVideo } from '../../../../tests/fixtures/makeMedia';
import { MODELS_DIR, partialModelsDir, removeDir, tempDir } from '../../../../tests/fixtures/modelsDir';
import { cosine } from './image';
import { createIndexModels, createSpeechToText, createVisualAnalyzer, ModelMissingError, type VisualFeatures } from './index';
import { MODEL_FILES, verifyModelFiles } from './fetchModels';
import { YoloxDetector } from './yolox';

describe('the indexer models over a generated video with a known timeline', () => {
  let dir: string;
  let video: TestVideo;
  let frames: Array<{ source: string; kind: string; expect: string[]; features: VisualFeatures }>;
  let msPerFrame = 0;

  beforeAll(async () => {
    dir = tempDir('index');
    video = await makeTestVideo(dir);
    const shots = video.timeline.filter((e) => e.kind !== 'speech');
    const images = await Promise.all(shots.map((e) => extractFrame(video.path, (e.start + e.end) / 2)));
    const analyzer = await createVisualAnalyzer(MODELS_DIR);
    try {
      await analyzer.analyze([images[0]]); // warm-up: first runs allocate
      const t = performance.now();
      const features = await analyzer.analyze(images);
      msPerFrame = (performance.now() - t) / images.length;
      frames = shots.map((e, i) => ({ source: e.source, kind: e.kind, expect: e.expect, features: features[i] }));
    } finally {
      await analyzer.close();
    }
  }, 60_000);
  afterAll(() => removeDir(dir));

  it('finds what each stretch shows, and reads text only where text was drawn', () => {
    console.log(
      `[timing] full visual analysis (all models, PP-OCR on every frame): ${msPerFrame.toFixed(0)} ms per keyframe over ${frames.length} keyframes`,
    );
    for (const f of frames) {
      const labels = f.features.objects.filter((o) => o.score > 0.4).map((o) => o.label);
      if (f.kind === 'photo') expect(labels, f.source).toEqual(expect.arrayContaining(f.expect));
      if (f.kind === 'text') expect(f.features.text.map((w) => w.word.toLowerCase())).toEqual(f.expect);
      else expect(f.features.text, f.source).toEqual([]);
      expect(f.features.embedding).toHaveLength(1280);
      expect(f.features.colours.length).toBeGreaterThan(0);
      expect(f.features.clip).toBeNull();
      expect(f.features.missing).toEqual(['clip: textual_quant.onnx, visual_quant.onnx not in MODELS_DIR']);
    }
    const byName = (s: string) => frames.find((f) => f.source === s)!.features;
    expect(byName('eagle.jpg').classes[0].label).toBe('bald eagle');
    expect(byName('SUNSET').colours[0].name).toBe('dark blue');
    // Two animal photos are nearer each other than either is to a plain title card.
    expect(cosine(byName('horses.jpg').embedding, byName('giraffe.jpg').embedding)).toBeGreaterThan(
      cosine(byName('horses.jpg').embedding, byName('SUNSET').embedding),
    );
  });

  it('hears the sentence on the audio track at the second it was mixed in', async () => {
    const speech = video.timeline.find((e) => e.kind === 'speech')!;
    const wav = await extractAudio16k(video.path, path.join(dir, 'audio.wav'));
    const segments = await createSpeechToText().transcribe(wav);
    const words = segments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThanOrEqual(6);
    for (const w of words) {
      expect(w.start).toBeGreaterThanOrEqual(speech.start - 0.3);
      expect(w.end).toBeLessThanOrEqual(speech.end + 0.3);
    }
    expect(words.map((w) => w.word)).toEqual(expect.arrayContaining(['quick', 'brown', 'fox', 'lazy', 'dog']));
  }, 30_000);
});

describe('missing models are reported by name', () => {
  it('names the absent files when a model is opened from the wrong folder', async () => {
    const empty = tempDir('empty-models');
    try {
      const err = await YoloxDetector.open(empty).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ModelMissingError);
      expect((err as ModelMissingError).code).toBe('model_missing');
      expect((err as ModelMissingError).files).toEqual(['yolox_nano.onnx', 'coco80_labels.txt']);
    } finally {
      removeDir(empty);
    }
  });

  it('computes what it can and says, per frame, which features it could not compute and why', async () => {
    const partial = partialModelsDir(['mobilenetv2-12-int8-embed.onnx', 'imagenet1k_labels.tsv']);
    const analyzer = await createVisualAnalyzer(partial, { ocr: 'off' });
    try {
      expect(analyzer.capabilities).toEqual(['classes', 'embedding', 'colours']);
      const sharp = (await import('sharp')).default;
      const [f, broken] = await analyzer.analyze([
        await sharp({ create: { width: 32, height: 32, channels: 3, background: '#c00' } })
          .png()
          .toBuffer(),
        Buffer.from('not an image'),
      ]);
      expect(f.objects).toEqual([]);
      expect(f.embedding).toHaveLength(1280);
      expect(f.missing).toEqual([
        'objects: yolox_nano.onnx, coco80_labels.txt not in MODELS_DIR',
        'faces: ultraface/version-RFB-320.onnx not in MODELS_DIR',
        'clip: textual_quant.onnx, visual_quant.onnx, clip-tokenizer/vocab.json, clip-tokenizer/merges.txt not in MODELS_DIR',
      ]);
      expect(broken.missing[0]).toMatch(/^image: cannot decode/);
    } finally {
      await analyzer.close();
      removeDir(partial);
    }
  });

  it('gives ingest and search everything they need, with the missing parts listed', async () => {
    const models = await createIndexModels(MODELS_DIR);
    try {
      expect(models.visual).not.toBeNull();
      expect(models.speech).not.toBeNull();
      expect(models.textEncoder).toBeNull();
      expect(models.missing).toEqual(['clip: textual_quant.onnx, visual_quant.onnx not in MODELS_DIR']);
      expect(models.expandLabel('horse')).toContain('animal');
      expect(models.normaliseQueryTerm('horses')).toContain('horse');
    } finally {
      await models.close();
    }
    const empty = tempDir('no-models');
    const none = await createIndexModels(empty);
    try {
      expect(none.visual).toBeNull();
      expect(none.missing).toEqual(
        expect.arrayContaining([
          'objects: yolox_nano.onnx, coco80_labels.txt not in MODELS_DIR',
          'classes: mobilenetv2-12-int8-embed.onnx, imagenet1k_labels.tsv not in MODELS_DIR',
        ]),
      );
      // WordNet ships with npm, so labels still expand without MODELS_DIR.
      expect(none.expandLabel('dog')).toContain('animal');
    } finally {
      await none.close();
      removeDir(empty);
    }
  }, 30_000);

  it('does not open a model whose file fails its pinned hash, and names the file in one log line', async () => {
    const dir = partialModelsDir([
      'mobilenetv2-12-int8-embed.onnx',
      'imagenet1k_labels.tsv',
      'clip-tokenizer/vocab.json',
      'clip-tokenizer/merges.txt',
    ]);
    // A truncated detector: same name, wrong bytes.
    fs.writeFileSync(path.join(dir, 'yolox_nano.onnx'), fs.readFileSync(path.join(MODELS_DIR, 'yolox_nano.onnx')).subarray(0, 1000));
    fs.copyFileSync(path.join(MODELS_DIR, 'coco80_labels.txt'), path.join(dir, 'coco80_labels.txt'));
    const warnings: string[] = [];
    const models = await createIndexModels(dir, { info: () => undefined, warn: (_o, msg) => warnings.push(msg) });
    try {
      expect(models.capabilities).not.toContain('objects');
      expect(models.capabilities).toContain('classes');
      expect(models.missing).toContainEqual(
        expect.stringMatching(/^objects: yolox_nano\.onnx is corrupt \(1000 bytes instead of 3713911\)$/),
      );
      expect(warnings.filter((w) => w.includes('yolox_nano.onnx is corrupt'))).toHaveLength(1);
    } finally {
      await models.close();
      removeDir(dir);
    }
  }, 30_000);
});

describe('the models shipped in the repository', () => {
  it('are the pinned files, byte for byte', async () => {
    expect(await verifyModelFiles(MODELS_DIR)).toEqual([]);
    for (const f of MODEL_FILES.filter((m) => !m.optional)) expect(fs.existsSync(path.join(MODELS_DIR, f.path)), f.path).toBe(true);
  });
});
