import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DARKNET_PHOTOS } from '../../../../tests/fixtures/makeMedia';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { cosine, decodeRgb } from './image';
import { MobilenetClassifier } from './mobilenet';

const file = (name: string) => path.join(DARKNET_PHOTOS, name);

describe('MobileNetV2 classifier and embedding', () => {
  let net: MobilenetClassifier;
  beforeAll(async () => {
    net = await MobilenetClassifier.open(MODELS_DIR);
  });
  afterAll(() => net.close());

  it('calls the dog a malamute or husky and the eagle a bald eagle, with WordNet ids', async () => {
    const [dog, eagle] = await net.classify([
      await decodeRgb(fs.readFileSync(file('dog.jpg'))),
      await decodeRgb(fs.readFileSync(file('eagle.jpg'))),
    ]);
    expect(['Alaskan Malamute', 'husky']).toContain(dog.classes[0].label);
    expect(dog.classes[0].score).toBeGreaterThan(0.6);
    expect(dog.classes[0].wnid).toMatch(/^n\d{8}$/);
    expect(eagle.classes[0]).toMatchObject({ label: 'bald eagle', wnid: 'n01614925' });
    expect(eagle.classes[0].score).toBeGreaterThan(0.6);
  });

  it("embeds a search's query photo as the same photo is indexed: exactly within the cap, closely above it", async () => {
    for (const name of ['dog.jpg', 'giraffe.jpg']) {
      const encoded = fs.readFileSync(file(name));
      const [indexed] = await net.classify([await decodeRgb(encoded, 1280)]);
      expect(Array.from((await net.embedEncoded(encoded, 1280))!), name).toEqual(Array.from(indexed.embedding));
    }
    const kite = fs.readFileSync(file('kite.jpg')); // 1352 x 900: scaled while decoded
    const [indexed] = await net.classify([await decodeRgb(kite, 1280)]);
    expect(cosine((await net.embedEncoded(kite, 1280))!, indexed.embedding)).toBeGreaterThan(0.97);
    expect(await net.embedEncoded(Buffer.from('not an image'), 1280)).toBeNull();
  });

  it('embeds a flipped, cropped dog closer to the dog than the horses are', async () => {
    const flipped = await sharp(file('dog.jpg')).flop().extract({ left: 40, top: 30, width: 680, height: 520 }).jpeg().toBuffer();
    const [dog, dog2, horses] = await net.classify(
      await Promise.all([fs.readFileSync(file('dog.jpg')), flipped, fs.readFileSync(file('horses.jpg'))].map((b) => decodeRgb(b))),
    );
    expect(dog.embedding).toHaveLength(1280);
    expect(Math.hypot(...dog.embedding)).toBeCloseTo(1, 4);
    const same = cosine(dog.embedding, dog2.embedding);
    const other = cosine(dog.embedding, horses.embedding);
    expect(same).toBeGreaterThan(0.8);
    expect(same - other).toBeGreaterThan(0.2);
  });

  it('batches keyframes (timing printed for the lead)', async () => {
    const names = ['dog.jpg', 'horses.jpg', 'eagle.jpg', 'giraffe.jpg', 'person.jpg', 'kite.jpg'];
    const t0 = performance.now();
    const images = await Promise.all(names.map((n) => decodeRgb(fs.readFileSync(file(n)))));
    const decodeMs = (performance.now() - t0) / names.length;
    const t = performance.now();
    const results = await net.classify(images);
    const ms = (performance.now() - t) / names.length;
    expect(results).toHaveLength(names.length);
    console.log(
      `[timing] MobileNetV2: ${ms.toFixed(1)} ms per keyframe in a batch of ${names.length} (resize + inference); JPEG decode ${decodeMs.toFixed(1)} ms`,
    );
  });
});
