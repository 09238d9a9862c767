// On-screen text: word recall of the PP-OCR reader per caption style, and milliseconds per frame,
// on frames drawn with ffmpeg over Debian darknet's photos at 720p and 1080p (cached in
// tests/bench/out/ocr). Each frame is read twice: as drawn (decoded like a keyframe, long side
// <= 1280) and as ingest sees it today (scaled to 640 px wide, JPEG q4). Plain photos show how many
// words are read where there is no text.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { decodeRgb } from '../../src/server/adapters/models/image';
import { OcrReader, type OcrWord } from '../../src/server/adapters/models/ocr';
import { CAPTION_PHOTOS, CAPTION_STYLES, expectedWords, makeCaptionFrame, PHRASES, type CaptionFrame } from '../fixtures/captionFrames';
import { DARKNET_PHOTOS } from '../fixtures/makeMedia';

const PER_STYLE = Number(process.env.BENCH_OCR_FRAMES ?? 3);
const SIZES: Array<[number, number]> = [
  [1280, 720],
  [1920, 1080],
];
const out = path.resolve('tests/bench/out/ocr');

const frames: CaptionFrame[] = [];
let phrase = 0;
for (const [si, style] of CAPTION_STYLES.entries()) {
  for (const [w, h] of SIZES) {
    for (let k = 0; k < PER_STYLE; k++) {
      const lines = Array.from({ length: style.lines }, () => PHRASES[phrase++ % PHRASES.length]!);
      const photo = CAPTION_PHOTOS[(si + k) % CAPTION_PHOTOS.length]!;
      frames.push(await makeCaptionFrame(out, { style, lines, photo, width: w, height: h, name: `s${si}-${h}p-${k}` }));
    }
  }
}

/** As ingest's keyframe extraction makes them: 640 px wide, JPEG at ffmpeg's q:v 4 (about quality 80). */
const asKeyframe = (bytes: Buffer) => sharp(bytes).resize({ width: 640 }).jpeg({ quality: 80 }).toBuffer();

// Frames here are unrelated pictures: tracking and the recent-lines cache are off, every frame is
// detected and read from scratch (what ingest pays on a keyframe whose text changed).
const open = () => OcrReader.open({ threads: 1, recentLines: 0, track: false });
/** Indexed words: as read, plus the parts of run-together words (what search matches). */
const indexed = (words: OcrWord[]) =>
  new Set(words.flatMap((w) => [w.word.toLowerCase(), ...(w.parts ?? [])]).flatMap((w) => w.split(/[^a-z0-9]+/)));
const asRead = (words: OcrWord[]) => new Set(words.flatMap((w) => w.word.toLowerCase().split(/[^a-z0-9]+/)));

interface Pass {
  ms: number[];
  byStyle: Map<string, { expected: number; read: number; indexed: number }>;
  misses: string[];
}

async function pass(prepare: (bytes: Buffer) => Promise<Buffer>): Promise<Pass> {
  const ocr = await open();
  const r: Pass = { ms: [], byStyle: new Map(), misses: [] };
  await ocr.read(await decodeRgb(await prepare(fs.readFileSync(frames[0]!.file)), 1280)); // warm-up
  for (const f of frames) {
    const img = await decodeRgb(await prepare(fs.readFileSync(f.file)), 1280);
    const t = performance.now();
    const words = await ocr.read(img);
    r.ms.push(performance.now() - t);
    const expected = expectedWords(f.lines);
    const [raw, idx] = [asRead(words), indexed(words)];
    const s = r.byStyle.get(f.style) ?? { expected: 0, read: 0, indexed: 0 };
    s.expected += expected.length;
    s.read += expected.filter((w) => raw.has(w)).length;
    s.indexed += expected.filter((w) => idx.has(w)).length;
    r.byStyle.set(f.style, s);
    if (expected.some((w) => !idx.has(w)))
      r.misses.push(`${path.basename(f.file)}: read "${words.map((w) => w.word).join(' ')}" for "${f.lines.join(' / ')}"`);
  }
  await ocr.close();
  return r;
}

const full = await pass(async (b) => b);
const keyframe = await pass(asKeyframe);

const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)}%`.padStart(7);
const q = (ms: number[], p: number) => [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(ms.length * p))]!;
console.log(
  `${frames.length} frames, ${CAPTION_STYLES.length} styles x ${SIZES.map(([, h]) => `${h}p`).join(' and ')} x ${PER_STYLE} phrases; one thread`,
);
console.log(
  `${'style'.padEnd(34)} ${'words'.padStart(5)}  ${'as drawn: indexed'.padStart(17)} ${'as read'.padStart(8)}   ${'640 keyframe: indexed'.padStart(21)} ${'as read'.padStart(8)}`,
);
const total = { expected: 0, read: 0, indexed: 0, kRead: 0, kIndexed: 0 };
for (const style of CAPTION_STYLES) {
  const a = full.byStyle.get(style.name)!;
  const k = keyframe.byStyle.get(style.name)!;
  total.expected += a.expected;
  total.read += a.read;
  total.indexed += a.indexed;
  total.kRead += k.read;
  total.kIndexed += k.indexed;
  console.log(
    `${style.name.padEnd(34)} ${String(a.expected).padStart(5)}  ${pct(a.indexed, a.expected).padStart(17)} ${pct(a.read, a.expected).padStart(8)}   ${pct(k.indexed, k.expected).padStart(21)} ${pct(k.read, k.expected).padStart(8)}`,
  );
}
console.log(
  `${'overall'.padEnd(34)} ${String(total.expected).padStart(5)}  ${pct(total.indexed, total.expected).padStart(17)} ${pct(total.read, total.expected).padStart(8)}   ${pct(total.kIndexed, total.expected).padStart(21)} ${pct(total.kRead, total.expected).padStart(8)}   (target >= 95% indexed, as drawn)`,
);
for (const [name, p] of [
  ['as drawn (long side <= 1280, detected at <= 960)', full],
  ['640 px keyframe', keyframe],
] as const) {
  console.log(`ms per frame, ${name}: median ${q(p.ms, 0.5).toFixed(0)}, p90 ${q(p.ms, 0.9).toFixed(0)}`);
}

// Words read where nothing is written.
const ocr = await open();
const stray: string[] = [];
for (const photo of fs.readdirSync(DARKNET_PHOTOS).filter((f) => f.endsWith('.jpg'))) {
  for (const [label, bytes] of [
    ['', fs.readFileSync(path.join(DARKNET_PHOTOS, photo))],
    [' (keyframe)', await asKeyframe(fs.readFileSync(path.join(DARKNET_PHOTOS, photo)))],
  ] as const) {
    const words = await ocr.read(await decodeRgb(bytes, 1280));
    if (words.length) stray.push(`${photo}${label}: ${words.map((w) => w.word).join(' ')}`);
  }
}
await ocr.close();
console.log(`plain photos with words read: ${stray.length ? stray.join('; ') : 'none'}`);
if (full.misses.length) console.log(`frames missing words (as drawn):\n  ${full.misses.join('\n  ')}`);
if (keyframe.misses.length) console.log(`frames missing words (640 keyframe):\n  ${keyframe.misses.join('\n  ')}`);

// Following a sequence of keyframes (what ingest does): 40 keyframes a second apart, 640 px JPEG q 4,
// of a photo panning under text that stays or changes. Each is read by a following reader and by a
// fresh one (every frame detected and read from scratch), and compared with the numbers drawn on it
// (the text is drawn on the keyframes themselves, keyframe i at t = i - 1 s, so each is known). A
// keyframe counts against following where the fresh reading has the drawn numbers and the following
// reader does not (a digit kept from an earlier keyframe, or a number cut short); the fresh
// reading's own misreadings are counted beside it.
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const REGULAR = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const slowPan = `scale=1500:-2,crop=1280:720:x='(iw-1280)*t/40':y='(ih-720)/2'`;
const fastPan = `scale=2400:-2,crop=1280:720:x='(iw-1280)*(0.5+0.5*sin(t))':y='(ih-720)*(0.5+0.5*cos(t*0.7))'`;
const five = (n: number) => String(n).padStart(5, '0');
/** Each sequence's drawn numbers on keyframe i (1-based, t = i - 1 s) are `numbers(i)`. */
const SEQUENCES: Array<{ name: string; photo: string; pan: string; text: string; numbers: (i: number) => string[] }> = [
  {
    name: 'counter (yellow, outlined)',
    photo: 'dog.jpg',
    pan: slowPan,
    text: `text='Frame %{eif\\:n*30+7\\:d\\:5}':fontfile=${FONT}:fontsize=44:fontcolor=yellow:borderw=3:x=(w-tw)/2:y=60`,
    numbers: (i) => [five((i - 1) * 30 + 7)],
  },
  {
    name: 'score (box, digits change)',
    photo: 'person.jpg',
    pan: slowPan,
    text: `text='HOME %{eif\\:floor(t/7)\\:d}%{eif\\:floor(t/3)\\:d} AWAY %{eif\\:floor(t/11)\\:d}4':fontfile=${FONT}:fontsize=40:fontcolor=white:box=1:boxcolor=blue@0.7:x=30:y=30`,
    numbers: (i) => [`${Math.floor((i - 1) / 7)}${Math.floor((i - 1) / 3)}`, `${Math.floor((i - 1) / 11)}4`],
  },
  {
    name: 'lap timer (30 % box, fast pan)',
    photo: 'giraffe.jpg',
    pan: fastPan,
    text: `text='Lap %{eif\\:floor(t/3)+10\\:d} time %{eif\\:n*1111\\:d}':fontfile=${REGULAR}:fontsize=30:fontcolor=white:box=1:boxcolor=black@0.3:x=(w-tw)/2:y=h-90`,
    numbers: (i) => [`${Math.floor((i - 1) / 3) + 10}`, `${(i - 1) * 1111}`],
  },
  {
    name: 'caption (outlined)',
    photo: 'dog.jpg',
    pan: slowPan,
    text: `text='Welcome to the farm':fontfile=${FONT}:fontsize=48:fontcolor=white:borderw=3:x=(w-tw)/2:y=h-120`,
    numbers: () => [],
  },
  {
    name: 'caption (50 % box)',
    photo: 'horses.jpg',
    pan: slowPan,
    text: `text='Breaking news from the city council':fontfile=${FONT}:fontsize=40:fontcolor=white:box=1:boxcolor=black@0.5:x=(w-tw)/2:y=h-110`,
    numbers: () => [],
  },
  {
    name: 'caption (30 % box, fast pan)',
    photo: 'giraffe.jpg',
    pan: fastPan,
    text: `text='Flight delayed by two hours':fontfile=${REGULAR}:fontsize=30:fontcolor=white:box=1:boxcolor=black@0.3:x=(w-tw)/2:y=h-90`,
    numbers: () => [],
  },
];
const numbers = (words: OcrWord[]) => words.map((w) => w.word).filter((w) => /\d/.test(w));
console.log(`\nfollowing 40 keyframes a second apart (640 px, JPEG q 4), one thread`);
console.log(
  `${'sequence'.padEnd(32)} ${'wrong'.padStart(5)} ${'fresh wrong'.padStart(11)} ${'detection skipped'.padStart(17)} ${'lines read'.padStart(10)} ${'ms/frame'.padStart(8)} ${'fresh ms'.padStart(8)}`,
);
let stale = 0;
for (const s of SEQUENCES) {
  const seqDir = path.join(out, 'drawn-sequences', s.name.replace(/\W+/g, '-'));
  fs.mkdirSync(seqDir, { recursive: true });
  if (!fs.existsSync(path.join(seqDir, 'f40.jpg')))
    execFileSync('ffmpeg', [
      ...['-v', 'error', '-y', '-loop', '1', '-framerate', '30', '-t', '40', '-i', path.join(DARKNET_PHOTOS, s.photo)],
      ...['-vf', `${s.pan},setsar=1,fps=1,drawtext=${s.text},scale=640:-2`, '-q:v', '4', path.join(seqDir, 'f%d.jpg')],
    ]);
  const [fresh, following] = [await OcrReader.open({ threads: 1, recentLines: 0, track: false }), await OcrReader.open({ threads: 1 })];
  let [staleHere, freshWrong, freshMs, followMs] = [0, 0, 0, 0];
  for (let i = 1; i <= 40; i++) {
    const img = await decodeRgb(fs.readFileSync(path.join(seqDir, `f${i}.jpg`)), 1280);
    let t = performance.now();
    const want = numbers(await fresh.read(img));
    freshMs += performance.now() - t;
    t = performance.now();
    const got = numbers(await following.read(img, 'seq', i === 1));
    followMs += performance.now() - t;
    const drawn = s.numbers(i);
    const right = (read: string[]) => read.length === drawn.length && drawn.every((n) => read.includes(n));
    if (!right(want)) freshWrong++;
    else if (!right(got)) staleHere++;
  }
  stale += staleHere;
  const st = following.stats;
  console.log(
    `${s.name.padEnd(32)} ${String(staleHere).padStart(5)} ${String(freshWrong).padStart(11)} ${`${st.framesTracked} of 40`.padStart(17)} ${String(st.linesRead).padStart(10)} ${(followMs / 40).toFixed(0).padStart(8)} ${(freshMs / 40).toFixed(0).padStart(8)}`,
  );
  await Promise.all([fresh.close(), following.close()]);
}
console.log(
  `numbers read wrong by following where a fresh reading has them right ('wrong'): ${stale} keyframes (target 0: ${stale === 0 ? 'met' : 'NOT met'})`,
);
