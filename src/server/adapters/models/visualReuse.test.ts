// Issue 41: a keyframe near-identical to the last one the picture models ran on (a still shot) takes
// its results instead of running them again; any real change in the picture runs them.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { createVisualAnalyzer } from './visual';

type Analyzer = Awaited<ReturnType<typeof createVisualAnalyzer>>;

const W = 640;
const H = 480;
/** A keyframe as ingest stores one (640 wide, JPEG), of the dog photo, shifted `dx` pixels and with `change` applied to its pixels. */
async function keyframe(o: { dx?: number; noise?: number; seed?: number; box?: boolean; brighter?: number } = {}) {
  const { data } = await sharp('/usr/share/darknet/data/dog.jpg')
    .resize(W + 16, H, { fit: 'cover' })
    .extract({ left: 8 + (o.dx ?? 0), top: 0, width: W, height: H })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let seed = o.seed ?? 1;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  for (let i = 0; i < data.length; i++) {
    const v = data[i]! + (o.noise ? Math.round(random() * o.noise) : 0) + (o.brighter ?? 0);
    data[i] = Math.max(0, Math.min(255, v));
  }
  let img = sharp(data, { raw: { width: W, height: H, channels: 3 } });
  // A red cup put down on the porch: 48 x 48 pixels, under 1 % of the picture.
  if (o.box)
    img = sharp(await img.png().toBuffer()).composite([
      { input: { create: { width: 48, height: 48, channels: 3, background: { r: 220, g: 30, b: 30 } } }, left: 520, top: 380 },
    ]);
  return img.jpeg({ quality: 80 }).toBuffer();
}

let analyzer: Analyzer;
beforeAll(async () => {
  analyzer = await createVisualAnalyzer(MODELS_DIR, { threads: 1, ocr: 'off' });
}, 60_000);
afterAll(() => analyzer?.close());

const labels = (f: { objects: Array<{ label: string }> }) => f.objects.map((o) => o.label).sort();

describe('near-identical keyframes (issue 41)', () => {
  it('a still shot with sensor noise runs the models once and gives every frame the same answers', async () => {
    const frames = await Promise.all([1, 2, 3].map((seed) => keyframe({ noise: 6, seed })));
    const before = { ...analyzer.stats };
    const out = await analyzer.analyze(frames);
    expect(analyzer.stats.analysed - before.analysed).toBe(1);
    expect(analyzer.stats.reused - before.reused).toBe(2);
    expect(labels(out[0]!)).toContain('dog');
    for (const f of out.slice(1)) {
      expect(labels(f)).toEqual(labels(out[0]!));
      expect(f.classes).toEqual(out[0]!.classes);
      expect([...f.embedding]).toEqual([...out[0]!.embedding]);
      expect(f.colours).toEqual(out[0]!.colours);
      expect(f.faces).toBe(out[0]!.faces);
    }
    // Each frame has its own copy: changing one leaves the others alone.
    out[1]!.objects[0]!.box[0] = 0.99;
    expect(out[2]!.objects[0]!.box[0]).not.toBe(0.99);
    // What the models say of a reused frame run afresh: the same objects and top class.
    const fresh = await createVisualAnalyzer(MODELS_DIR, { threads: 1, ocr: 'off' });
    try {
      const [again] = await fresh.analyze([frames[2]!]);
      expect(labels(again!)).toEqual(labels(out[2]!));
      expect(again!.classes[0]?.label).toBe(out[2]!.classes[0]?.label);
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('runs the models again for a small object coming in, a pan of a few pixels, or a slow change once it adds up', async () => {
    const still = await keyframe({ noise: 6, seed: 7 });
    await analyzer.analyze([still]);
    for (const changed of [await keyframe({ noise: 6, seed: 8, box: true }), await keyframe({ noise: 6, seed: 9, dx: 6 })]) {
      await analyzer.analyze([still]); // the reference again (near-identical to the first: reused)
      const before = { ...analyzer.stats };
      await analyzer.analyze([changed]);
      expect(analyzer.stats.analysed - before.analysed).toBe(1);
    }
    // A fade: each frame one grey level brighter than the one before. Compared with the frame the
    // models last ran on (not the previous one), the models run again once the change reaches 3 levels.
    await analyzer.analyze([await keyframe()]);
    const before = { ...analyzer.stats };
    const fade = await Promise.all([1, 2, 3, 4, 5, 6].map((b) => keyframe({ brighter: b })));
    await analyzer.analyze(fade);
    expect(analyzer.stats.reused - before.reused).toBe(4);
    expect(analyzer.stats.analysed - before.analysed).toBe(2);
  }, 60_000);
});
