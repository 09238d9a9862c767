import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DARKNET_PHOTOS, extractFrame, makeCaptionedPhoto, makeTestVideo, makeTextImage } from '../../../../tests/fixtures/makeMedia';
import { removeDir, tempDir } from '../../../../tests/fixtures/modelsDir';
import { decodeRgb, type RgbImage } from './image';
import { cleanWord, findLines, hasLikelyText, OcrReader } from './ocr';

/** Frames with text, and frames without, all generated or from Debian's darknet photos. */
interface Frame {
  name: string;
  image: RgbImage;
  words: string[];
}

describe('on-screen text', () => {
  let dir: string;
  let ocr: OcrReader;
  const frames: Frame[] = [];

  beforeAll(async () => {
    dir = tempDir('ocr');
    const [reader, video] = await Promise.all([OcrReader.open(), makeTestVideo(dir)]);
    ocr = reader;
    const add = async (name: string, bytes: Buffer, words: string[]) => frames.push({ name, image: await decodeRgb(bytes), words });
    // Keyframes of the generated video, as the pipeline would extract them.
    for (const e of video.timeline.filter((x) => x.kind !== 'speech')) {
      await add(`video ${e.source}`, await extractFrame(video.path, (e.start + e.end) / 2), e.kind === 'text' ? [e.source] : []);
    }
    await add(
      'dark print',
      fs.readFileSync(await makeTextImage(dir, 'Hello World 2024', { name: 'print', fg: 'black', bg: 'white', fontSize: 56 })),
      ['Hello', 'World', '2024'],
    );
    const captions: Array<[string, string]> = [
      ['horses.jpg', 'Welcome to the farm'],
      ['dog.jpg', 'Our dog Max'],
      ['kite.jpg', 'Kite festival at the beach'],
      ['giraffe.jpg', 'Wildlife park'],
    ];
    for (const [photo, caption] of captions)
      await add(`caption on ${photo}`, fs.readFileSync(await makeCaptionedPhoto(dir, photo, caption)), caption.split(' '));
    for (const photo of ['dog.jpg', 'horses.jpg', 'eagle.jpg', 'giraffe.jpg', 'person.jpg', 'kite.jpg', 'scream.jpg']) {
      await add(`photo ${photo}`, fs.readFileSync(path.join(DARKNET_PHOTOS, photo)), []);
    }
  }, 60_000);

  afterAll(async () => {
    await ocr?.close();
    removeDir(dir);
  });

  it("reads 'SUNSET' drawn on the video and the words of print", async () => {
    const sunset = frames.find((f) => f.name === 'video SUNSET')!;
    expect((await ocr.read(sunset.image)).map((w) => w.word)).toEqual(['SUNSET']);
    const print = frames.find((f) => f.name === 'dark print')!;
    const words = (await ocr.read(print.image)).map((w) => w.word);
    expect(words).toEqual(expect.arrayContaining(['World', '2024']));
  });

  it('reads most words of subtitle-style captions over photos, and nothing from plain photos', async () => {
    let expected = 0;
    let read = 0;
    const t = performance.now();
    let withText = 0;
    for (const f of frames.filter((x) => x.name.startsWith('caption'))) {
      // Split as the indexer does: 'festival-at' is two searchable words.
      const words = new Set((await ocr.read(f.image)).flatMap((w) => w.word.toLowerCase().split(/[^a-z0-9]+/)));
      withText++;
      expected += f.words.length;
      read += f.words.filter((w) => words.has(w.toLowerCase())).length;
    }
    const perFrame = (performance.now() - t) / withText;
    for (const f of frames.filter((x) => x.name.startsWith('photo') || (x.name.startsWith('video') && !x.words.length))) {
      expect(await ocr.read(f.image), f.name).toEqual([]);
    }
    console.log(`[timing] OCR: ${perFrame.toFixed(0)} ms per keyframe with text (line crops); ${read}/${expected} caption words read`);
    expect(read / expected).toBeGreaterThanOrEqual(0.85);
  });

  it('hasLikelyText says yes on every frame with text and no on plain photos (precision printed)', async () => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    let ms = 0;
    const wrong: string[] = [];
    for (const f of frames) {
      const t = performance.now();
      const guess = await hasLikelyText(f.image);
      ms += performance.now() - t;
      if (guess && f.words.length) tp++;
      else if (guess) fp++;
      else if (f.words.length) fn++;
      if (guess !== f.words.length > 0) wrong.push(f.name);
    }
    const precision = tp / (tp + fp);
    const recall = tp / (tp + fn);
    console.log(
      `[timing] hasLikelyText: ${(ms / frames.length).toFixed(1)} ms per keyframe; precision ${precision.toFixed(2)}, recall ${recall.toFixed(2)} on ${frames.length} frames (${tp + fn} with text)${wrong.length ? `; wrong: ${wrong.join(', ')}` : ''}`,
    );
    expect(recall).toBe(1);
    expect(precision).toBeGreaterThanOrEqual(0.9);
    // The raw encoded bytes work too (the pipeline's keyframes).
    expect(await hasLikelyText(await extractableSunset(frames))).toBe(true);
  });

  it('finds the caption as one line near the bottom of the picture', async () => {
    const f = frames.find((x) => x.name === 'caption on horses.jpg')!;
    const lines = await findLines(f.image);
    expect(lines).toHaveLength(1);
    expect(lines[0].y1 / f.image.height).toBeGreaterThan(0.8);
    expect(lines[0].ink).toBe('light');
  });

  it('drops junk that texture turns into letters', () => {
    expect(cleanWord('SUNSET')).toBe('SUNSET');
    expect(cleanWord('“Welcome,')).toBe('Welcome');
    expect(cleanWord('2024')).toBe('2024');
    expect(cleanWord('a')).toBeNull();
    expect(cleanWord('|')).toBeNull();
    expect(cleanWord('lll')).toBeNull();
    expect(cleanWord('iY)')).toBe('iY');
    expect(cleanWord('x2:4/')).toBeNull();
    expect(cleanWord('7')).toBeNull();
  });
});

/** The SUNSET frame encoded as PNG, to check the Buffer entry point. */
async function extractableSunset(frames: Frame[]): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const f = frames.find((x) => x.name === 'video SUNSET')!;
  return sharp(f.image.data, { raw: { width: f.image.width, height: f.image.height, channels: 3 } })
    .png()
    .toBuffer();
}
