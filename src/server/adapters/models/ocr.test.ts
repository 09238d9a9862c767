import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTION_STYLES, expectedWords, makeCaptionFrame } from '../../../../tests/fixtures/captionFrames';
import { DARKNET_PHOTOS } from '../../../../tests/fixtures/makeMedia';
import { removeDir, tempDir } from '../../../../tests/fixtures/modelsDir';
import { decodeRgb, type RgbImage } from './image';
import { cleanWord, OcrReader, requireOcrFiles, OCR_FILES } from './ocr';
import { ctcDecode, dbBoxes } from './ocrDecode';
import { WordList } from './ocrWords';
import { ModelMissingError } from './types';

const style = (name: string) => CAPTION_STYLES.find((s) => s.name.startsWith(name))!;

describe('on-screen text with PP-OCR', () => {
  let dir: string;
  let ocr: OcrReader;
  const captions: Array<{ name: string; image: RgbImage; lines: string[] }> = [];
  const photos: Array<{ name: string; image: RgbImage }> = [];

  beforeAll(async () => {
    dir = tempDir('ocr');
    ocr = await OcrReader.open({ threads: 1, track: false });
    const cases: Array<[string, string[], string, number]> = [
      ['white on translucent box', ['Welcome to the farm'], 'horses.jpg', 720],
      ['yellow with black outline', ['Kite festival at the beach'], 'kite.jpg', 720],
      ['dark text on light box', ['Fresh bread baked every morning'], 'dog.jpg', 720],
      ['over a busy photo', ['Horses graze in the valley'], 'person.jpg', 1080],
      ['two lines', ['Breaking news from the city council', 'Traffic delays on the motorway'], 'giraffe.jpg', 720],
      ['small 24 px', ['Turn left at the old bridge'], 'eagle.jpg', 720],
      ['title card', ['Next stop Platform Nine'], 'dog.jpg', 720],
    ];
    for (const [name, lines, photo, h] of cases) {
      const f = await makeCaptionFrame(dir, {
        style: style(name),
        lines,
        photo,
        width: (h * 16) / 9,
        height: h,
        name: name.replace(/\W+/g, '-'),
      });
      captions.push({ name, image: await decodeRgb(fs.readFileSync(f.file), 1280), lines: f.lines });
    }
    for (const p of ['dog.jpg', 'horses.jpg', 'eagle.jpg', 'giraffe.jpg', 'person.jpg', 'kite.jpg', 'scream.jpg'])
      photos.push({ name: p, image: await decodeRgb(fs.readFileSync(path.join(DARKNET_PHOTOS, p)), 1280) });
  }, 60_000);

  afterAll(async () => {
    await ocr?.close();
    removeDir(dir);
  });

  it('reads the words of captions in several styles drawn over photos', async () => {
    let expected = 0;
    let found = 0;
    const t = performance.now();
    for (const c of captions) {
      const words = await ocr.read(c.image);
      const got = new Set(words.flatMap((w) => [w.word.toLowerCase(), ...(w.parts ?? [])]));
      const want = expectedWords(c.lines);
      const hits = want.filter((w) => got.has(w));
      // every caption is read, not just most of them
      expect(hits.length / want.length, `${c.name}: ${words.map((w) => w.word).join(' ')}`).toBeGreaterThanOrEqual(0.75);
      expected += want.length;
      found += hits.length;
    }
    console.log(
      `[timing] PP-OCR: ${((performance.now() - t) / captions.length).toFixed(0)} ms a frame; ${found}/${expected} caption words`,
    );
    expect(found / expected).toBeGreaterThanOrEqual(0.95);
  }, 30_000);

  it('gives words in reading order, with confidences, and splits capitals that ran together', async () => {
    const two = captions.find((c) => c.name === 'two lines')!;
    const words = (await ocr.read(two.image)).map((w) => w.word.toLowerCase());
    expect(words.indexOf('breaking')).toBeLessThan(words.indexOf('traffic'));
    expect(words.indexOf('city')).toBeLessThan(words.indexOf('council'));
    const title = await ocr.read(captions.find((c) => c.name === 'title card')!.image);
    for (const w of title) expect(w.confidence).toBeGreaterThanOrEqual(60);
    const indexed = title.flatMap((w) => [w.word.toLowerCase(), ...(w.parts ?? [])]);
    expect(indexed).toEqual(expect.arrayContaining(['next', 'stop', 'platform', 'nine']));
  }, 30_000);

  it('reads (almost) nothing from photos without text', async () => {
    const stray: string[] = [];
    for (const p of photos) stray.push(...(await ocr.read(p.image)).map((w) => `${p.name}: ${w.word}`));
    console.log(`[ocr] words read on ${photos.length} plain photos: ${stray.length ? stray.join(', ') : 'none'}`);
    expect(stray.length).toBeLessThanOrEqual(1);
  }, 30_000);

  it('does not detect or read again while a caption stays on screen, and reads the next one', async () => {
    const reader = await OcrReader.open({ threads: 1 });
    try {
      const first = await reader.read(captions[0]!.image);
      expect(reader.stats).toEqual({ framesDetected: 1, framesTracked: 0, linesRead: 1, linesReused: 0 });
      expect(await reader.read(captions[0]!.image)).toEqual(first);
      expect(reader.stats).toEqual({ framesDetected: 1, framesTracked: 1, linesRead: 1, linesReused: 0 });
      // Same picture, style and place, other words: detected and read, not taken from before.
      const other = await makeCaptionFrame(dir, {
        style: style('white on translucent box'),
        lines: ['Wildlife park open daily'],
        photo: 'horses.jpg',
        width: 1280,
        height: 720,
        name: 'same-place-other-words',
      });
      const words = await reader.read(await decodeRgb(fs.readFileSync(other.file), 1280));
      expect(words.map((w) => w.word)).toEqual(['Wildlife', 'park', 'open', 'daily']);
      expect(reader.stats).toEqual({ framesDetected: 2, framesTracked: 1, linesRead: 2, linesReused: 0 });
      // Back to the first caption: detected (it changed) but not read again.
      expect(await reader.read(captions[0]!.image)).toEqual(first);
      expect(reader.stats).toEqual({ framesDetected: 3, framesTracked: 1, linesRead: 2, linesReused: 1 });
    } finally {
      await reader.close();
    }
  }, 30_000);
});

describe('PP-OCR on a still picture', () => {
  it('looks for new text again after four frames that only showed the same caption', async () => {
    const dir = tempDir('ocr-still');
    const reader = await OcrReader.open({ threads: 1 });
    try {
      const f = await makeCaptionFrame(dir, {
        style: style('top, outlined'),
        lines: ['Please mind the gap'],
        photo: 'eagle.jpg',
        width: 1280,
        height: 720,
        name: 'still',
      });
      const img = await decodeRgb(fs.readFileSync(f.file), 1280);
      for (let i = 0; i < 6; i++) expect((await reader.read(img)).map((w) => w.word)).toEqual(['Please', 'mind', 'the', 'gap']);
      expect(reader.stats).toMatchObject({ framesDetected: 2, framesTracked: 4, linesRead: 1, linesReused: 1 });
    } finally {
      await reader.close();
      removeDir(dir);
    }
  }, 30_000);
});

describe('PP-OCR files', () => {
  it('names the files that are not in the package folder', () => {
    const empty = tempDir('no-ocr');
    try {
      fs.writeFileSync(path.join(empty, OCR_FILES[2]), 'a\nb\n');
      let err: unknown = null;
      try {
        requireOcrFiles(empty);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ModelMissingError);
      expect((err as ModelMissingError).files).toEqual([OCR_FILES[0], OCR_FILES[1]]);
    } finally {
      removeDir(empty);
    }
  });
});

describe('DB post-processing and CTC decoding', () => {
  it('finds separate text regions, drops faint ones, and grows each by the unclip distance', () => {
    const w = 40;
    const h = 20;
    const prob = new Float32Array(w * h);
    const fill = (x1: number, y1: number, x2: number, y2: number, p: number) => {
      for (let y = y1; y <= y2; y++) for (let x = x1; x <= x2; x++) prob[y * w + x] = p;
    };
    fill(4, 6, 23, 9, 0.9); // a 20 x 4 line
    fill(25, 12, 34, 15, 0.8); // a 10 x 4 line
    fill(2, 15, 10, 18, 0.35); // above the pixel threshold, below the box threshold
    const boxes = dbBoxes(prob, w, h);
    expect(boxes).toHaveLength(2);
    const d = (20 * 4 * 1.5) / (2 * 24); // area * ratio / perimeter
    expect(boxes[0]!.x1).toBeCloseTo(4 - d);
    expect(boxes[0]!.x2).toBeCloseTo(24 + d);
    expect(boxes[0]!.y1).toBeCloseTo(6 - d);
    expect(boxes[0]!.y2).toBeCloseTo(10 + d);
    expect(boxes[0]!.score).toBeCloseTo(0.9);
    expect(boxes[1]!.x1).toBeGreaterThan(20);
  });

  it('merges repeats, drops blanks, and reads a likely space between characters', () => {
    const dict = ['A', 'B', ' '];
    const classes = dict.length + 1;
    // steps: A A blank(space 0.3) B blank B
    const steps: number[][] = [
      [0.1, 0.9, 0, 0],
      [0.1, 0.9, 0, 0],
      [0.7, 0, 0, 0.3],
      [0, 0, 1, 0],
      [1, 0, 0, 0],
      [0, 0, 1, 0],
    ];
    const data = new Float32Array(steps.flat());
    expect(ctcDecode(data, 0, steps.length, classes, dict).text).toBe('ABB');
    const spaced = ctcDecode(data, 0, steps.length, classes, dict, 0.2);
    expect(spaced.text).toBe('A BB');
    expect(spaced.probs).toHaveLength(4);
    expect(spaced.probs[1]).toBeCloseTo(0.3);
  });
});

describe('words for the index', () => {
  const words = new WordList();

  it('splits words that ran together into the words a search would use', () => {
    expect(words.split('PLATFORMNINE')).toEqual(['platform', 'nine']);
    expect(words.split('KEEPCALMANDCARRYON')).toEqual(['keep', 'calm', 'and', 'carry', 'on']);
    expect(words.split('Meetthe')).toEqual(['meet', 'the']);
    expect(words.split('dateJune')).toEqual(['date', 'june']);
    expect(words.split('JUNE14')).toEqual(['june', '14']);
    expect(words.split('SUNSETOVERTHEHARBOUR')).toEqual(['sunset', 'over', 'the', 'harbour']);
    expect(words.split('BIRTHDAYSARAH')).toEqual(['birthday', 'sarah']);
  });

  it('leaves words and names alone', () => {
    for (const w of ['SUNSET', 'together', 'lighthouse', 'Sarah', 'Vienna', 'championship', 'watercolours', 'Recording'])
      expect(words.split(w), w).toBeNull();
  });

  it('drops junk that texture turns into letters', () => {
    expect(cleanWord('SUNSET')).toBe('SUNSET');
    expect(cleanWord('“Welcome,')).toBe('Welcome');
    expect(cleanWord('2024')).toBe('2024');
    expect(cleanWord('a')).toBeNull();
    expect(cleanWord('|')).toBeNull();
    expect(cleanWord('lll')).toBeNull();
    expect(cleanWord('x2:4/')).toBeNull();
    expect(cleanWord('7')).toBeNull();
  });
});

describe('PP-OCR following a sequence of keyframes', () => {
  // Six keyframes a second apart, as ingest makes them (640 px, JPEG q 4), of a photo panning slowly
  // under a counter whose middle digits change every frame and a caption that stays.
  let dir: string;
  const frames: RgbImage[] = [];
  beforeAll(async () => {
    dir = tempDir('ocr-sequence');
    const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', '6', '-i', path.join(DARKNET_PHOTOS, 'dog.jpg')],
      ...[
        '-vf',
        `scale=1500:-2,crop=1280:720:x='(iw-1280)*t/40':y='(ih-720)/2',setsar=1,` +
          `drawtext=fontfile=${font}:text='Frame %{eif\\:n\\:d\\:5}':fontsize=44:fontcolor=yellow:borderw=3:x=(w-tw)/2:y=60,` +
          `drawtext=fontfile=${font}:text='Welcome to the farm':fontsize=48:fontcolor=white:borderw=3:x=(w-tw)/2:y=h-120,fps=1,scale=640:-2`,
      ],
      ...['-q:v', '4', path.join(dir, 'f%d.jpg')],
    ]);
    for (let i = 1; i <= 6; i++) frames.push(await decodeRgb(fs.readFileSync(path.join(dir, `f${i}.jpg`)), 1280));
  }, 60_000);
  afterAll(() => removeDir(dir));

  it('detects again a keyframe whose number changed, reads the number anew and reuses the caption that stayed', async () => {
    const [fresh, following] = await Promise.all([
      OcrReader.open({ threads: 1, recentLines: 0, track: false }),
      OcrReader.open({ threads: 1 }),
    ]);
    try {
      const counters = new Set<string>();
      for (const [i, img] of frames.entries()) {
        const want = (await fresh.read(img)).map((w) => w.word);
        expect(
          (await following.read(img, 'video', i === 0)).map((w) => w.word),
          `keyframe ${i + 1}`,
        ).toEqual(want);
        counters.add(want[1] ?? '');
      }
      // Every keyframe shows another count, read as it is (not the first keyframe's again)...
      expect(counters.size).toBe(frames.length);
      // ...each keyframe detected afresh, as its text changed (what changed may have grown past its
      // old box), and the caption that stayed read once only, reused from the recent lines.
      expect(following.stats.framesTracked).toBe(0);
      expect(following.stats.linesReused).toBeGreaterThanOrEqual(frames.length - 1);
      expect(following.stats.linesRead).toBeLessThan(2 * frames.length);
    } finally {
      await Promise.all([fresh.close(), following.close()]);
    }
  }, 60_000);

  it('on a moving picture, follows a caption only once a second detection has read it the same', async () => {
    // Three keyframes a second apart of a fast pan under a caption that stays. One detection on a
    // moving picture can find only fragments of a line (the OCR bench's lap timer: 'ap' and 'ime'),
    // so the next keyframe is detected too, and only a reading two detections agree on is followed.
    const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', '3', '-i', path.join(DARKNET_PHOTOS, 'giraffe.jpg')],
      ...[
        '-vf',
        `scale=2400:-2,crop=1280:720:x='(iw-1280)*(0.5+0.5*sin(t))':y='(ih-720)*(0.5+0.5*cos(t*0.7))',setsar=1,fps=1,` +
          `drawtext=fontfile=${font}:text='Flight delayed by two hours':fontsize=44:fontcolor=white:box=1:boxcolor=black:boxborderw=12:x=(w-tw)/2:y=h-110,scale=640:-2`,
      ],
      ...['-q:v', '4', path.join(dir, 'm%d.jpg')],
    ]);
    const following = await OcrReader.open({ threads: 1 });
    try {
      const read: string[][] = [];
      const tracked: number[] = [];
      for (let i = 1; i <= 3; i++) {
        const img = await decodeRgb(fs.readFileSync(path.join(dir, `m${i}.jpg`)), 1280);
        read.push((await following.read(img, 'pan', i === 1)).map((w) => w.word));
        tracked.push(following.stats.framesTracked);
      }
      expect(read).toEqual(Array.from({ length: 3 }, () => ['Flight', 'delayed', 'by', 'two', 'hours']));
      // The second keyframe is detected (its reading then agrees with the first's), the third followed.
      expect(tracked).toEqual([0, 0, 1]);
    } finally {
      await following.close();
    }
  }, 60_000);

  it('reads what appeared beside a number that changed', async () => {
    // Two keyframes a second apart over a slow pan: a lap counter goes from 11 to 12 as a time
    // appears to its right, outside the counter's old box.
    const font = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
    const text = (t: string, x: number, extra = '') =>
      `drawtext=fontfile=${font}:text='${t}':fontsize=44:fontcolor=yellow:borderw=3:x=${x}:y=60${extra}`;
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', '2', '-i', path.join(DARKNET_PHOTOS, 'dog.jpg')],
      ...[
        '-vf',
        `scale=1500:-2,crop=1280:720:x='(iw-1280)*t/40':y='(ih-720)/2',setsar=1,fps=1,` +
          `${text('Lap %{eif\\:if(lt(t\\,1)\\,11\\,12)\\:d} of 40 laps', 40)},${text('time 6666', 560, ":enable='gte(t,1)'")},scale=640:-2`,
      ],
      ...['-q:v', '4', path.join(dir, 'g%d.jpg')],
    ]);
    const following = await OcrReader.open({ threads: 1 });
    try {
      const read: string[][] = [];
      for (let i = 1; i <= 2; i++) {
        const img = await decodeRgb(fs.readFileSync(path.join(dir, `g${i}.jpg`)), 1280);
        read.push((await following.read(img, 'laps', i === 1)).map((w) => w.word));
      }
      // (Two lines side by side: in whichever order their tops put them.)
      expect(read.map((words) => [...words].sort())).toEqual([
        ['11', '40', 'Lap', 'laps', 'of'],
        ['12', '40', '6666', 'Lap', 'laps', 'of', 'time'],
      ]);
    } finally {
      await following.close();
    }
  }, 60_000);
});
