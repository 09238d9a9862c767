import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  CAPTION_MAX_LINE_CHARS,
  CAPTION_MAX_LINES,
  MSG_RENDER,
  type CompilationBody,
  type CompilationSubtitlesBody,
  type Media,
  type RenderAnswer,
  type TranscriptFile,
  type TranscriptLine,
} from '../../src/contract';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { defaultLibrary, makeVideo, uploadFile, verifiedUser, waitForStatus } from './support/upload';

// Captions in downloads (issue 39) on real renders: a video whose audio says two sentences (flite),
// transcribed by pocketsphinx, cut into a two-clip compilation. Burned-in captions show in the
// frames where words are said and nowhere else (the caption area against the same render without
// them), in two styles; the soft mov_text track's cues are the transcript's words at their times on
// the compilation's clock, none across the cut; the SRT/WebVTT route answers the same cues, a
// corrected line's text, and 404 where nothing is said; captions asked of a silent video are none.
let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: Awaited<ReturnType<typeof verifiedUser>>;
let stranger: Awaited<ReturnType<typeof verifiedUser>>;
let lib: { _id: string; rootFolderId: string };
let speech: Media;
let silent: Media;
let lines: TranscriptLine[];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-captions-'));
const SECOND = 'please call stella and ask her to bring these things';
/** The output: 640x360 at the source's 10 fps. */
const W = 640;
const H = 360;
const FPS = 10;
const FRAME = 1 / FPS;

beforeAll(async () => {
  t = await startTestServer({ RENDER_WAIT_MS: '0' });
  owner = await verifiedUser(t, 'captions');
  stranger = await verifiedUser(t, 'stranger');
  lib = await defaultLibrary(t, owner.token);
  const video = await makeSpeechVideo(path.join(dir, 'speech.mp4'), [FOX_PHRASE, SECOND], { width: W, height: H });
  const upload = async (name: string, bytes: Buffer) => {
    const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, name, bytes);
    return waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
  };
  [speech, silent] = await Promise.all([upload('talk.mp4', fs.readFileSync(video.path)), upload('quiet.mp4', makeVideo(4, '640x360'))]);
  expect([speech.status, silent.status]).toEqual(['completed', 'completed']);
  const tr = await t.api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${lib._id}&mediaId=${speech._id}`, { token: owner.token });
  lines = tr.body.data!.segments.filter((s) => s.text.trim());
  // pocketsphinx heard something in each sentence (what exactly does not matter: the captions are the transcript)
  expect(lines.length).toBeGreaterThanOrEqual(2);
}, 300_000);

afterAll(async () => {
  await t?.close();
  // CAPTIONS_KEEP=1 keeps the renders (in the folder logged here) to look at.
  if (process.env.CAPTIONS_KEEP) console.log(`renders kept in ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
});

const words = (s: string) => s.split(/\s+/).filter(Boolean);
/** The lines said in [a, b) of the media. */
const linesIn = (a: number, b: number) => lines.filter((l) => l.start >= a && l.end <= b);

/**
 * The compilation: clip A from before the first sentence to the middle of it (a cut inside speech),
 * clip B around the last line whole, with silence before and after it.
 */
function clipsOf() {
  const first = lines[0]!;
  const last = lines[lines.length - 1]!;
  const a = { start: Math.max(0, first.start - 0.6), end: (first.start + first.end) / 2 };
  const b = { start: last.start - 0.6, end: Math.min(speech.metadata.video.duration, last.end + 1) };
  return [a, b].map((r) => ({ libraryId: lib._id, mediaId: speech._id, start: Number(r.start.toFixed(3)), end: Number(r.end.toFixed(3)) }));
}

async function render(body: CompilationBody) {
  let res = await t.api<RenderAnswer>('POST', API.renderCompilation, { token: owner.token, body });
  expect([200, 202], JSON.stringify(res.body.error)).toContain(res.status);
  for (let i = 0; !res.body.data?.url && res.body.data?.status !== 'failed' && i < 600; i++) {
    await new Promise((r) => setTimeout(r, 200));
    res = await t.api<RenderAnswer>('GET', API.renderStatus(res.body.data!.renderId), { token: owner.token });
  }
  expect(res.body.data, JSON.stringify(res.body.data)).toMatchObject({ status: 'completed', credits: 0 });
  const file = path.join(dir, `${res.body.data!.renderId}.mp4`);
  fs.writeFileSync(file, Buffer.from(await (await fetch(res.body.data!.url!)).arrayBuffer()));
  return { file, renderId: res.body.data!.renderId };
}

const streams = (file: string) =>
  (
    JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', file]).toString()) as {
      streams: Array<{ codec_type: string; codec_name: string; tags?: { language?: string } }>;
    }
  ).streams;

interface ReadCue {
  start: number;
  end: number;
  text: string;
}
const time = (s: string) => {
  const [h, m, rest] = s.replace(',', '.').split(':');
  return Number(h) * 3600 + Number(m) * 60 + Number(rest);
};
/** SRT or WebVTT cues, read by ffmpeg's own demuxers (a parser that is not the writer). */
function readCues(text: string, format: 'srt' | 'webvtt'): ReadCue[] {
  const file = path.join(dir, `cues-${Math.random().toString(36).slice(2)}.${format === 'srt' ? 'srt' : 'vtt'}`);
  fs.writeFileSync(file, text);
  return parseSrt(execFileSync('ffmpeg', ['-v', 'error', '-f', format, '-i', file, '-f', 'srt', '-']).toString());
}
function parseSrt(srt: string): ReadCue[] {
  return srt
    .trim()
    .split(/\r?\n\r?\n/)
    .filter(Boolean)
    .map((block) => {
      const [, times, ...text] = block.split(/\r?\n/);
      const [a, b] = times!.split(' --> ');
      return { start: time(a!), end: time(b!), text: text.join('\n') };
    });
}
/** The soft subtitle track of a render, as ffmpeg reads it back. */
const softCues = (file: string) =>
  parseSrt(execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:s:0', '-f', 'srt', '-']).toString());

/** Every frame as 8-bit grey W x H. */
function frames(file: string): Buffer[] {
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', 'format=gray', '-f', 'rawvideo', '-'], { maxBuffer: 1 << 28 });
  const out: Buffer[] = [];
  for (let i = 0; (i + 1) * W * H <= raw.length; i++) out.push(raw.subarray(i * W * H, (i + 1) * W * H));
  return out;
}
/** The share of a region's pixels (fractions of the picture) that differ clearly (by more than 48 grey levels) between two frames. */
function regionDiff(a: Buffer, b: Buffer, r: { x0: number; x1: number; y0: number; y1: number }) {
  let changed = 0;
  let n = 0;
  for (let y = Math.round(r.y0 * H); y < Math.round(r.y1 * H); y++)
    for (let x = Math.round(r.x0 * W); x < Math.round(r.x1 * W); x++, n++) if (Math.abs(a[y * W + x]! - b[y * W + x]!) > 48) changed++;
  return changed / n;
}

const subtitles = (body: CompilationSubtitlesBody, token = owner.token) =>
  fetch(`${t.server.url}${API.renderSubtitles}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  });

describe('captions in a compilation', () => {
  let plain: string;
  let captioned: string;
  let cues: ReadCue[];

  it('muxes a soft mov_text track whose cues are the transcript’s words at their times, none across the cut', async () => {
    const clips = clipsOf();
    [plain, captioned] = [
      (await render({ clips, height: 360 })).file,
      (await render({ clips, height: 360, captions: { burn: 'bar', soft: true } })).file,
    ];
    expect(streams(plain).map((s) => s.codec_type)).toEqual(['video', 'audio']);
    const sub = streams(captioned).find((s) => s.codec_type === 'subtitle');
    expect(sub).toMatchObject({ codec_name: 'mov_text', tags: { language: 'eng' } });

    cues = softCues(captioned);
    const cut = clips[0]!.end - clips[0]!.start;
    const total = cut + clips[1]!.end - clips[1]!.start;
    for (const c of cues) {
      // each cue inside one clip: before the cut or after it, never across
      expect(c.end <= cut + 0.001 || c.start >= cut - 0.001, JSON.stringify(c)).toBe(true);
      expect(c.end).toBeLessThanOrEqual(total + 0.001);
      const ls = c.text.split('\n');
      expect(ls.length).toBeLessThanOrEqual(CAPTION_MAX_LINES);
      for (const l of ls) expect(l.length).toBeLessThanOrEqual(CAPTION_MAX_LINE_CHARS);
    }
    // Clip B holds the last line whole: its cues say its words, from its first word's time (on the
    // compilation's clock) within a frame, to at least its last word's end.
    const inB = cues.filter((c) => c.start >= cut - 0.001);
    const heardB = linesIn(clips[1]!.start, clips[1]!.end);
    expect(inB.flatMap((c) => words(c.text))).toEqual(heardB.flatMap((l) => words(l.text)));
    expect(Math.abs(inB[0]!.start - (cut + heardB[0]!.start - clips[1]!.start))).toBeLessThanOrEqual(FRAME / 2);
    expect(inB[inB.length - 1]!.end).toBeGreaterThanOrEqual(cut + heardB[heardB.length - 1]!.end - clips[1]!.start - 0.002);
    // Clip A is cut in the middle of the first line: its cues are the line's first words, starting with it.
    const inA = cues.filter((c) => c.end <= cut + 0.001);
    const saidA = inA.flatMap((c) => words(c.text));
    expect(saidA.length).toBeGreaterThan(0);
    expect(saidA).toEqual(words(lines[0]!.text).slice(0, saidA.length));
    expect(saidA.length).toBeLessThan(words(lines[0]!.text).length);
    expect(Math.abs(inA[0]!.start - (lines[0]!.start - clips[0]!.start))).toBeLessThanOrEqual(FRAME / 2);
    // the last cue before the cut ends with it at the latest
    expect(inA[inA.length - 1]!.end).toBeLessThanOrEqual(cut + 0.001);
  }, 180_000);

  it('burns the bar in where words are said and nowhere else', () => {
    const a = frames(plain);
    const b = frames(captioned);
    expect(b.length).toBe(a.length);
    // the bar's text area: the bottom band, left of the watermark in the corner
    const area = { x0: 0.1, x1: 0.72, y0: 0.72, y1: 0.97 };
    const checked = check(a, b, area, cues);
    expect(checked.present).toBeGreaterThanOrEqual(5);
    expect(checked.absent).toBeGreaterThanOrEqual(5);
  });

  it('burns big word-by-word captions in the middle of the picture in the words style', async () => {
    const { file } = await render({ clips: clipsOf(), height: 360, captions: { burn: 'words' } });
    // burned only: no subtitle track
    expect(streams(file).map((s) => s.codec_type)).toEqual(['video', 'audio']);
    const a = frames(plain);
    const b = frames(file);
    const checked = check(a, b, { x0: 0.05, x1: 0.95, y0: 0.52, y1: 0.84 }, cues);
    expect(checked.present).toBeGreaterThanOrEqual(5);
    expect(checked.absent).toBeGreaterThanOrEqual(5);
    // and not at the bottom, where the bar would be
    const bottom = check(a, b, { x0: 0.1, x1: 0.72, y0: 0.88, y1: 0.97 }, cues, false);
    expect(bottom.present).toBe(0);
  }, 120_000);
});

/**
 * Compares each frame of a captioned render with the plain one over `area`: a frame well inside a
 * cue must differ there (caption drawn), a frame well away from every cue must not.
 */
function check(plain: Buffer[], captioned: Buffer[], area: Parameters<typeof regionDiff>[2], cues: ReadCue[], expectCaptions = true) {
  let present = 0;
  let absent = 0;
  const report: string[] = [];
  plain.forEach((p, i) => {
    const at = i / FPS + FRAME / 2;
    const d = regionDiff(p, captioned[i]!, area);
    const inside = cues.some((c) => at > c.start + FRAME && at < c.end - FRAME);
    const away = cues.every((c) => at < c.start - 2 * FRAME || at > c.end + 2 * FRAME);
    // A caption's letters change a few percent of the area; compression noise changes none of it by that much.
    const shown = d > 0.005;
    if (inside && expectCaptions) {
      if (!shown) report.push(`frame ${i} (${at.toFixed(2)} s) inside a cue: no caption (${(d * 100).toFixed(2)}% changed)`);
      else present++;
    } else if (inside) {
      if (shown) present++;
    } else if (away) {
      if (d > 0.0005) report.push(`frame ${i} (${at.toFixed(2)} s) away from every cue: changed (${(d * 100).toFixed(2)}%)`);
      else absent++;
    }
  });
  expect(report).toEqual([]);
  return { present, absent };
}

describe('the compilation’s subtitles route', () => {
  it('answers SRT and WebVTT of the compilation as attachments, the same cues as the soft track', async () => {
    const clips = clipsOf();
    const srt = await subtitles({ clips, format: 'srt', filename: 'talk "cut"' });
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    expect(srt.headers.get('content-disposition')).toMatch(/^attachment; filename="talk _cut_\.srt"/);
    const fromSrt = readCues(await srt.text(), 'srt');
    const vtt = await subtitles({ clips, format: 'vtt' });
    expect(vtt.status).toBe(200);
    expect(vtt.headers.get('content-type')).toMatch(/^text\/vtt/);
    expect(vtt.headers.get('content-disposition')).toMatch(/^attachment; filename="clipseek-compilation\.vtt"/);
    const fromVtt = readCues(await vtt.text(), 'webvtt');
    expect(fromVtt).toEqual(fromSrt);
    const cut = clips[0]!.end - clips[0]!.start;
    expect(fromSrt.some((c) => c.start < cut) && fromSrt.some((c) => c.start >= cut)).toBe(true);
    expect(fromSrt.flatMap((c) => words(c.text)).length).toBeGreaterThan(3);
  });

  it('reads a corrected line: its words at the times of those it kept', async () => {
    const last = lines[lines.length - 1]!;
    const corrected = `Please, ${last.text} {now}!`;
    const patch = await t.api<TranscriptLine>('PATCH', API.transcriptSegment(lib._id, speech._id, last.id), {
      token: owner.token,
      body: { text: corrected },
    });
    expect(patch.status).toBe(200);
    const clip = {
      libraryId: lib._id,
      mediaId: speech._id,
      start: Number((last.start - 0.5).toFixed(3)),
      end: Number((last.end + 0.5).toFixed(3)),
    };
    const res = await subtitles({ clips: [clip], format: 'srt' });
    expect(res.status).toBe(200);
    const got = readCues(await res.text(), 'srt');
    expect(got.flatMap((c) => words(c.text))).toEqual(words(corrected));
    // the first kept word is where it was heard; 'Please,' was typed before it and is given the time before it
    expect(got[0]!.start).toBeLessThanOrEqual(last.start - clip.start + 0.001);
    const restore = await t.api('POST', API.transcriptSegmentRestore(lib._id, speech._id, last.id), { token: owner.token });
    expect(restore.status).toBe(200);
  });

  it('answers 404 where nothing is said, and for another user’s media; checks ranges as a compilation does', async () => {
    const quiet = await subtitles({ clips: [{ libraryId: lib._id, mediaId: silent._id, start: 0, end: 3 }], format: 'srt' });
    expect(quiet.status).toBe(404);
    expect(((await quiet.json()) as { error: { message: string } }).error.message).toBe(MSG_RENDER.noTranscript);
    const gap = await subtitles({ clips: [{ libraryId: lib._id, mediaId: speech._id, start: 0, end: 0.4 }], format: 'vtt' });
    expect(gap.status).toBe(404);
    const theirs = await subtitles({ clips: clipsOf(), format: 'srt' }, stranger.token);
    expect(theirs.status).toBe(404);
    const backwards = await subtitles({ clips: [{ libraryId: lib._id, mediaId: speech._id, start: 3, end: 2 }], format: 'srt' });
    expect(backwards.status).toBe(400);
    expect(((await backwards.json()) as { error: { message: string } }).error.message).toBe(MSG_RENDER.startBeforeEnd);
  });

  it('renders a silent video with captions asked for, without any', async () => {
    const { file } = await render({
      clips: [{ libraryId: lib._id, mediaId: silent._id, start: 0, end: 3 }],
      height: 360,
      captions: { burn: 'subtitle', soft: true },
    });
    expect(streams(file).map((s) => s.codec_type)).toEqual(['video', 'audio']);
  }, 120_000);
});
