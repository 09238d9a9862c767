// Clipseek as a cluster (issue 16): two API processes (ROLE=api) and two workers (ROLE=worker) on
// one PostgreSQL and the S3 test server, each process with its own data directory, as on separate
// machines. A video uploaded through one API is indexed by a worker that is SIGKILLed in the middle
// of ingest; the other worker takes the job over through its lease (src/server/jobs/leases.ts) and
// finishes it; search through the other API finds the video and a render posted there is made by
// the surviving worker. On the same upload run a long video is indexed in chunks of time (issue 41,
// INGEST_CHUNK_SECONDS=30): worker A takes chunks and is killed holding one; B takes the rest, and the
// index equals one whole-file pass computed here. Runs in npm test's PostgreSQL pass only (TEST_DATABASE_URL).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { API, type Media, type RenderAnswer, type SearchResults } from '../../src/contract';
import { makeCounterVideo } from '../fixtures/counterVideo';
import { CHUNKED_VIDEO_SECONDS, makeChunkedVideo, TEST_CHUNK_SECONDS, TEST_CHUNKED_AFTER } from '../fixtures/chunkedVideo';
import { extractAudio, extractKeyframes } from '../../src/server/adapters/media/ffmpeg';
import { createSpeechToText } from '../../src/server/adapters/models';
import { shotsOf } from '../../src/server/modules/ingest/chunks';
import { MAX_KEYFRAME_GAP, SCENE_THRESHOLD } from '../../src/server/modules/ingest/stages/keyframes';
import { client, startMailbox } from './support/harness';
import { startS3 } from './support/s3';
import { serverEnv, spawnServer, stagesDone, stagesStarted, type SpawnedServer } from './support/spawnServer';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

const adminUrl = process.env.TEST_DATABASE_URL;
const procs: SpawnedServer[] = [];
const cleanups: Array<() => Promise<void> | void> = [];

afterAll(async () => {
  await Promise.all(procs.map((p) => p.kill().catch(() => undefined)));
  for (const c of cleanups.reverse()) await c();
});

describe.skipIf(!adminUrl)('a cluster of 2 API and 2 worker processes on PostgreSQL and S3', () => {
  it(
    'uploads through one API, survives a worker killed mid-ingest, searches and renders through the other',
    { timeout: 400_000 },
    async () => {
      // One database for the cluster.
      const name = `cs_cluster_${Math.random().toString(36).slice(2, 8)}`;
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      cleanups.push(async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      });
      const dbUrl = new URL(adminUrl!);
      dbUrl.pathname = `/${name}`;
      const s3 = await startS3();
      cleanups.push(() => s3.close());
      const mailbox = await startMailbox();
      cleanups.push(() => mailbox.close());
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-cluster-'));
      cleanups.push(() => fs.rmSync(work, { recursive: true, force: true }));

      // What every process shares; each has its own data directory, as on its own machine.
      const shared = {
        DATABASE_URL: dbUrl.toString(),
        SMTP_URL: mailbox.url,
        JOB_LEASE_TTL_MS: '3000',
        RENDER_WAIT_MS: '200',
        INGEST_CHUNK_SECONDS: String(TEST_CHUNK_SECONDS),
        CHUNKED_AFTER_SECONDS: String(TEST_CHUNKED_AFTER),
        ...s3.env,
      };
      const start = async (label: string, extra: Record<string, string>) => {
        const dir = path.join(work, label);
        fs.mkdirSync(dir);
        const p = await spawnServer(serverEnv(dir, { ...shared, ...extra }), 90_000);
        procs.push(p);
        return p;
      };
      // The first API process migrates the database; the others find it migrated.
      const api1 = await start('api1', { ROLE: 'api' });
      const api2 = await start('api2', { ROLE: 'api' });
      // Worker A stops (holds) once the counter's visual stage has started, and in the long video's
      // first keyframes chunk: the kill lands mid-ingest of both. One chunk only: holding every
      // keyframes chunk filled both of A's heavy slots before the counter reached its visual stage.
      const workerA = await start('workerA', {
        ROLE: 'worker',
        CLIPSEEK_TEST_HOLD: 'ingest:visual@counter.mp4,ingest:chunk:keyframes@long.mp4#0',
      });

      const t1 = { api: client(api1.url), mailbox } as never;
      const t2 = { api: client(api2.url), mailbox } as never;
      const { token } = await verifiedUser(t1, 'cluster');
      const lib = await defaultLibrary(t1, token);
      const file = path.join(work, 'counter.mp4');
      makeCounterVideo(file);
      const fin = await uploadFile(t1, token, lib._id, lib.rootFolderId, 'counter.mp4', fs.readFileSync(file));
      expect(fin.status).toBe(200);
      const mediaId = (fin.body as { data: Media }).data._id;
      const longFile = path.join(work, 'long.mp4');
      makeChunkedVideo(longFile);
      const longFin = await uploadFile(t1, token, lib._id, lib.rootFolderId, 'long.mp4', fs.readFileSync(longFile));
      expect(longFin.status).toBe(200);
      const longId = (longFin.body as { data: Media }).data._id;

      await workerA.waitForLine((l) => l.msg === 'test hold' && l.point === 'ingest:visual', 120_000);
      const heldChunk = await workerA.waitForLine((l) => l.msg === 'test hold' && l.point === 'ingest:chunk:keyframes', 180_000);
      const chunksOf = (w: SpawnedServer, msg: string) =>
        w.lines.filter((l) => l.msg === msg && l.mediaId === longId).map((l) => `${String(l.stage)}#${String(l.chunk)}`);
      const doneByA = chunksOf(workerA, 'ingest chunk done');
      const stagesDoneByA = stagesDone(workerA, mediaId);
      expect(stagesDoneByA).toContain('keyframes');
      const workerB = await start('workerB', { ROLE: 'worker' });
      await workerA.kill();

      // Worker B hands the job back once A's lease is stale, takes it, and resumes at the visual stage.
      const media = await waitForStatus(t2, token, lib._id, mediaId, ['completed', 'errored', 'invalid'], 180_000);
      expect(media.status).toBe('completed');
      await workerB.waitForLine((l) => l.msg === 'jobs handed back: their worker stopped answering', 10_000);
      const startedByB = stagesStarted(workerB, mediaId);
      expect(startedByB[0]).toBe('visual');
      for (const stage of stagesDoneByA) expect(startedByB).not.toContain(stage);

      // The long video: A took chunks (finishing some, as the machine lets it) and was killed in a
      // keyframes chunk; B took that one over and ran the rest, none that A had finished.
      expect(chunksOf(workerA, 'ingest chunk started')).toContain(`keyframes#${String(heldChunk.chunk)}`);
      const long = await waitForStatus(t2, token, lib._id, longId, ['completed', 'errored', 'invalid'], 240_000);
      expect(long.status, long.error?.message ?? '').toBe('completed');
      const doneByB = chunksOf(workerB, 'ingest chunk done');
      expect(doneByB).toContain(`keyframes#${String(heldChunk.chunk)}`);
      expect(doneByB).toEqual(expect.arrayContaining(['visual#0', 'visual#1', 'visual#2']));
      for (const c of doneByA) expect(doneByB).not.toContain(c);
      console.log(
        `[chunks] worker A (pid ${workerA.pid}) ran ${doneByA.join(' ')}; worker B (pid ${workerB.pid}) ran ${doneByB.join(' ')}`,
      );
      // Its index is one whole-file pass's.
      const options = { duration: CHUNKED_VIDEO_SECONDS, threshold: SCENE_THRESHOLD, maxGap: MAX_KEYFRAME_GAP, grid: TEST_CHUNK_SECONDS };
      const whole = await extractKeyframes(longFile, path.join(work, 'whole'), options);
      const { shots, shotIdx } = shotsOf(whole, CHUNKED_VIDEO_SECONDS, SCENE_THRESHOLD);
      const said = await createSpeechToText().transcribe(
        (await extractAudio(longFile, path.join(work, 'whole.wav'), CHUNKED_VIDEO_SECONDS))!,
      );
      const db = new pg.Client({ connectionString: dbUrl.toString() });
      await db.connect();
      try {
        const q = async (text: string) => (await db.query(text, [longId])).rows as Array<Record<string, unknown>>;
        expect(await q('select t, shot_idx as shot from keyframes where media_id = $1 order by t')).toEqual(
          whole.map((f, i) => ({ t: f.t, shot: shotIdx[i] })),
        );
        expect(await q('select start, "end" from shots where media_id = $1 order by idx')).toEqual(shots);
        expect(await q('select words from transcript_segments where media_id = $1 order by start')).toEqual(
          said.map((s) => ({ words: s.words })),
        );
        expect(await q('select 1 from keyframes where media_id = $1 and embedding is null')).toEqual([]);
      } finally {
        await db.end();
      }

      // Search through the other API finds it (the on-screen word COUNTER).
      const found = await client(api2.url)<SearchResults>('POST', API.searchVisual(lib._id), { token, body: { text: 'counter' } });
      expect(found.status).toBe(200);
      expect(found.body.data!.results.some((m) => m.mediaId === mediaId)).toBe(true);

      // A render posted to the second API is made by the surviving worker and served from S3.
      const api = client(api2.url);
      const first = await api<RenderAnswer>('POST', API.renderCompilation, {
        token,
        body: { clips: [{ libraryId: lib._id, mediaId, start: 1, end: 3 }], height: 360, filename: 'cluster', watermark: true },
      });
      expect([200, 202]).toContain(first.status);
      let answer = first;
      for (let i = 0; !answer.body.data?.url && i < 600; i++) {
        await new Promise((r) => setTimeout(r, 250));
        answer = await api<RenderAnswer>('GET', API.renderStatus(first.body.data!.renderId), { token });
        expect(answer.status).toBe(200);
      }
      const res = await fetch(answer.body.data!.url!);
      expect(res.status).toBe(200);
      const out = path.join(work, 'out.mp4');
      fs.writeFileSync(out, Buffer.from(await res.arrayBuffer()));
      const seconds = Number(
        execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', out]).toString(),
      );
      expect(seconds).toBeGreaterThan(1.8);
      expect(seconds).toBeLessThan(2.3);
      expect(workerB.lines.some((l) => l.msg === 'render done' && l.renderId === first.body.data!.renderId)).toBe(true);
    },
  );
});
