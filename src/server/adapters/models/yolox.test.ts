import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DARKNET_PHOTOS } from '../../../../tests/fixtures/makeMedia';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { decodeRgb } from './image';
import { UltrafaceDetector } from './ultraface';
import { YoloxDetector } from './yolox';

const photo = (name: string) => decodeRgb(fs.readFileSync(path.join(DARKNET_PHOTOS, name)));

describe('YOLOX-nano', () => {
  let yolox: YoloxDetector;
  beforeAll(async () => {
    yolox = await YoloxDetector.open(MODELS_DIR);
  });
  afterAll(() => yolox.close());

  it('finds the dog, the bicycle and the car in dog.jpg with the scores the models README reports', async () => {
    const found = await yolox.detect(await photo('dog.jpg'));
    const best = (label: string) => found.find((d) => d.label === label);
    // README: dog 0.83, car 0.81, bicycle 0.81.
    expect(best('dog')?.score).toBeCloseTo(0.83, 1);
    expect(best('car')?.score).toBeCloseTo(0.81, 1);
    expect(best('bicycle')?.score).toBeCloseTo(0.81, 1);
    // The dog sits bottom-left, the car is a small box top-right: boxes are fractions of the original.
    const [dx1, dy1, dx2, dy2] = best('dog')!.box;
    expect(dx1).toBeLessThan(0.25);
    expect(dx2).toBeLessThan(0.5);
    expect(dy2).toBeGreaterThan(0.85);
    expect(dy1).toBeGreaterThan(0.25);
    const [cx1, , , cy2] = best('car')!.box;
    expect(cx1).toBeGreaterThan(0.55);
    expect(cy2).toBeLessThan(0.35);
  });

  it('names darknet-spelled classes as COCO does and finds several horses', async () => {
    const found = await yolox.detect(await photo('horses.jpg'));
    expect(found.filter((d) => d.label === 'horse' && d.score > 0.5).length).toBeGreaterThanOrEqual(3);
    const giraffe = await yolox.detect(await photo('giraffe.jpg'));
    expect(giraffe[0].label).toBe('giraffe');
  });

  it('keeps per-keyframe time low (timing printed for the lead)', async () => {
    const images = await Promise.all(['dog.jpg', 'horses.jpg', 'eagle.jpg', 'giraffe.jpg', 'person.jpg', 'kite.jpg'].map(photo));
    await yolox.detect(images[0]); // warm-up
    const t = performance.now();
    for (const img of images) await yolox.detect(img);
    const ms = (performance.now() - t) / images.length;
    console.log(`[timing] YOLOX-nano: ${ms.toFixed(1)} ms per keyframe (letterbox + inference + NMS, ${images.length} photos)`);
    expect(ms).toBeLessThan(500);
  });
});

describe('UltraFace', () => {
  it('loads, runs and finds no face where there is none (no photo with a face ships in Debian to test the positive case)', async () => {
    const faces = await UltrafaceDetector.open(MODELS_DIR);
    try {
      const [dog, horses] = [await photo('dog.jpg'), await photo('horses.jpg')];
      expect(await faces.count(dog)).toBe(0); // the first run also warms the session up
      const t = performance.now();
      expect(await faces.count(horses)).toBe(0);
      console.log(`[timing] UltraFace: ${(performance.now() - t).toFixed(1)} ms per keyframe`);
    } finally {
      await faces.close();
    }
  });
});
