// A search's query photo is embedded on its own thread as it is here, and this thread's event loop
// (the server's: every other request waits on it) stays free meanwhile.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { typicalHold } from '../../../../tests/fixtures/eventLoop';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { cosine } from './image';
import { QueryThread } from './queryThread';
import { createVisualAnalyzer } from './visual';

const PHOTOS = ['dog', 'kite', 'giraffe'].map((n) => fs.readFileSync(`/usr/share/darknet/data/${n}.jpg`));

describe('QueryThread', () => {
  it('embeds a photo as the analyzer does here, without holding this thread', async () => {
    const here = await createVisualAnalyzer(MODELS_DIR, { threads: 1, skip: ['objects', 'faces', 'clip'], ocr: 'off' });
    const thread = await QueryThread.open({ modelsDir: MODELS_DIR });
    try {
      await Promise.all([here.embed(PHOTOS[0]!), thread.embed(PHOTOS[0]!)]); // warm-up
      let local: Float32Array[] = [];
      let threaded: Float32Array[] = [];
      const heldHere = await typicalHold(async () => (local = await Promise.all(PHOTOS.map((p) => here.embed(p)))));
      const heldThread = await typicalHold(async () => (threaded = await Promise.all(PHOTOS.map((p) => thread.embed(p)))));
      threaded.forEach((v, i) => {
        expect(v).toBeInstanceOf(Float32Array);
        expect(v).toHaveLength(1280);
        // The same model and decoding; two inference threads may sum in another order.
        expect(cosine(v, local[i]!)).toBeGreaterThan(0.9999);
      });
      console.log(`[timing] event loop held at most ${heldHere.toFixed(0)} ms embedding here, ${heldThread.toFixed(0)} ms with the thread`);
      expect(heldThread).toBeLessThan(heldHere / 2);
      // What is not an image gives an empty embedding (the search then says it could not be read).
      expect(await thread.embed(Buffer.from('not an image'))).toHaveLength(0);
    } finally {
      await Promise.all([here.close(), thread.close()]);
    }
  }, 120_000);
});
