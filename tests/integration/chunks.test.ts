// Long media indexed in chunks (issue 41): a video three chunks long on a 30 s grid is indexed by
// ingest.chunk jobs, and its index equals what one whole-file pass over the original computes: the
// same keyframes (times, scene scores, JPEG bytes), shots and spoken words.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../../src/contract';
import { readAll } from '../../src/server/adapters/blobs/blobStore';
import { extractAudio, extractKeyframes, videoOrigin } from '../../src/server/adapters/media/ffmpeg';
import { createSpeechToText } from '../../src/server/adapters/models';
import { byChunk, chunkRange, shotsOf } from '../../src/server/modules/ingest/chunks';
import { createVisualAnalyzer } from '../../src/server/adapters/models/visual';
import { ocrIndexWords } from '../../src/server/modules/search/visualTerms';
import { IndexRepository } from '../../src/server/modules/ingest/index.repository';
import { MAX_KEYFRAME_GAP, SCENE_THRESHOLD } from '../../src/server/modules/ingest/stages/keyframes';
import { blobKeys } from '../../src/server/modules/storage/blobKeys';
import { CHUNKED_VIDEO_SECONDS, makeChunkedVideo, TEST_CHUNK_SECONDS, TEST_CHUNKED_AFTER } from '../fixtures/chunkedVideo';
import { MODELS_DIR, removeDir, tempDir } from '../fixtures/modelsDir';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

let t: Awaited<ReturnType<typeof startTestServer>>;
let dir: string;
let file: string;
const C = TEST_CHUNK_SECONDS;
const options = { duration: CHUNKED_VIDEO_SECONDS, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP, grid: C };
const md5 = (b: Buffer | string) =>
  crypto
    .createHash('md5')
    .update(typeof b === 'string' ? fs.readFileSync(b) : b)
    .digest('hex');

beforeAll(async () => {
  dir = tempDir('chunks');
  file = path.join(dir, 'long.mp4');
  makeChunkedVideo(file);
  t = await startTestServer({ INGEST_CHUNK_SECONDS: String(C), CHUNKED_AFTER_SECONDS: String(TEST_CHUNKED_AFTER) });
}, 120_000);
afterAll(async () => {
  await t?.close();
  removeDir(dir);
});

describe('a long media indexed in chunks', () => {
  it('picks in each chunk of the grid exactly the keyframes one whole pass picks there: times, scene scores, JPEG bytes', async () => {
    const whole = await extractKeyframes(file, path.join(dir, 'whole'), options);
    const origin = await videoOrigin(file);
    const count = Math.ceil(CHUNKED_VIDEO_SECONDS / C);
    const chunked = [];
    for (let k = 0; k < count; k++) {
      const { from, to } = chunkRange(k, count, C);
      chunked.push(...(await extractKeyframes(file, path.join(dir, `chunk${k}`), { ...options, chunk: { from, to, origin } })));
    }
    const seen = (fs: typeof whole) => fs.map((f) => ({ t: f.t, scene: f.scene, jpeg: md5(f.file) }));
    expect(seen(chunked)).toEqual(seen(whole));
    // What the video holds: the cuts, a frame at every grid line (60 s falls in a still stretch), and B-frames decoded.
    expect(whole.filter((f) => f.scene > SCENE_THRESHOLD).length).toBeGreaterThanOrEqual(4);
    for (const line of [30, 60]) expect(whole.some((f) => f.t >= line && f.t < line + 0.05)).toBe(true);
  }, 120_000);

  it("indexes it in chunk jobs, with the whole pass's keyframes, shots and words", async () => {
    const { token } = await verifiedUser(t, 'chunks');
    const lib = await defaultLibrary(t, token);
    const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, 'long.mp4', fs.readFileSync(file));
    expect(fin.status).toBe(200);
    const mediaId = (fin.body as { data: Media }).data._id;
    const media = await waitForStatus(t, token, lib._id, mediaId, ['completed', 'errored', 'invalid'], 400_000);
    expect(media.status, media.error?.message ?? '').toBe('completed');

    const db = t.server.database.db;
    const index = new IndexRepository(db);
    const row = await db.selectFrom('media').select('ingest').where('id', '=', mediaId).executeTakeFirstOrThrow();
    expect(row.ingest.chunking).toEqual({ seconds: C, count: 3 });
    // A chunked stage's time is its chunks' runs and the merge: the 70 s of keyframes take far more than a merge's milliseconds.
    const timings = row.ingest.timings ?? {};
    for (const stage of ['keyframes', 'visual', 'speech']) expect(timings[stage], stage).toBeGreaterThan(300);
    // The chunks' rows are merged into the index and gone; so is the audio the speech chunks shared.
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from ingest_chunks where media_id = ${mediaId}`.execute(db)).rows[0]!.n,
    ).toBe(0);
    expect(await t.server.blobs.exists(blobKeys.ingestWork(mediaId, 'audio.wav'))).toBe(false);

    // The whole-file pass, here.
    const whole = await extractKeyframes(file, path.join(dir, 'whole-index'), options);
    const { shots, shotIdx } = shotsOf(whole, CHUNKED_VIDEO_SECONDS, SCENE_THRESHOLD);
    const keyframes = await index.keyframes(mediaId);
    expect(keyframes.map((k) => ({ t: k.t, shot: k.shot_idx }))).toEqual(whole.map((f, i) => ({ t: f.t, shot: shotIdx[i] })));
    for (const f of whole)
      expect(md5(await readAll(await t.server.blobs.read(blobKeys.keyframe(mediaId, f.t)))), `${f.t}`).toBe(md5(f.file));
    expect((await index.shots(mediaId)).map((s) => ({ start: s.start, end: s.end }))).toEqual(shots);
    // Every keyframe went through the picture models, as a whole-file pass over the same keyframes
    // runs them: grid chunk by grid chunk, each on a chain of its own (the near-duplicate reuse and
    // the OCR reader's tracking start afresh at each line).
    expect(await index.pendingKeyframes(mediaId)).toEqual([]);
    const models = await createVisualAnalyzer(MODELS_DIR);
    try {
      const seen = (k: { objects: unknown; classes: unknown; colours: unknown; ocr: string | null }) => ({
        objects: (k.objects as Array<{ label: string }>).map((o) => o.label),
        classes: (k.classes as Array<{ label: string }>).map((c) => c.label),
        colours: (k.colours as Array<{ name: string }>).map((c) => c.name),
        ocr: k.ocr ?? '',
      });
      const expected = [];
      for (const group of byChunk(keyframes, C)) {
        const jpegs = await Promise.all(group.map(async (k) => readAll(await t.server.blobs.read(blobKeys.keyframe(mediaId, k.t)))));
        const { features } = await models.analyzeChained(jpegs, null);
        expected.push(...features.map((f) => seen({ ...f, ocr: ocrIndexWords(f.text).join(' ') })));
      }
      expect(keyframes.map(seen)).toEqual(expected);
    } finally {
      await models.close();
    }

    const wav = (await extractAudio(file, path.join(dir, 'whole.wav'), CHUNKED_VIDEO_SECONDS))!;
    const said = await createSpeechToText().transcribe(wav);
    const transcript = await index.transcript(mediaId);
    expect(said.flatMap((s) => s.words).length).toBeGreaterThan(10);
    expect(transcript.map((s) => ({ start: s.start, end: s.end, text: s.text, words: s.words }))).toEqual(
      said.map((s) => ({ start: s.start, end: s.end, text: s.text, words: s.words })),
    );
  }, 500_000);
});
