// Crash safety (issue 16). The server runs in its own process and is SIGKILLed (with its process
// group, ffmpeg included: no shutdown code runs) in the middle of an upload, of each ingest stage and
// of a render, then restarted on the same DATA_DIR and port. Kill points are deterministic through
// the env-only CLIPSEEK_TEST_HOLD hook (src/server/testHold.ts, inert in production): the process
// prints `test hold` at the named point and waits there to be killed. The tests below share one
// server lineage, so they run in order. Their time is mostly server starts (tsx, PGlite, models):
// ~5 s each on an idle 2-core machine, several times that under load, hence the long timeouts.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  ingestCost,
  MSG_RENDER,
  partCount,
  UPLOAD_CHUNK_SIZE,
  watermarkRemovalCost,
  type BillingInfo,
  type Media,
  type RenderAnswer,
  type UploadStartAnswer,
  type UsageHistoryEntry,
  type User,
} from '../../src/contract';
import { missingPartsOf } from '../../src/app/state/uploadQueue';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { client, codeFrom, startMailbox, uniqueEmail } from './support/harness';
import { serverEnv, spawnServer, stagesDone, stagesStarted, type SpawnedServer } from './support/spawnServer';
import { fingerprintOf, putParts } from './support/upload';

const embedded = !process.env.TEST_DATABASE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-crashsafety-'));
const objects = path.join(dataDir, 'blobs', 'objects');
const VIDEO_NAME = 'crash-speech.mp4';
let mailbox: Awaited<ReturnType<typeof startMailbox>>;
let port = 0;
let current: SpawnedServer | null = null;
/** Every server of the lineage, in start order (their logs are read after they died). */
const lineage: SpawnedServer[] = [];

/** Starts a server on the shared DATA_DIR and port, held at `hold` (points, each only for our video's ingest or any render). */
async function boot(hold: string[] = []) {
  const points = hold.map((p) => (p.startsWith('ingest:') ? `${p}@${VIDEO_NAME}` : p)).join(',');
  current = await spawnServer(
    serverEnv(dataDir, { SMTP_URL: mailbox.url, PORT: String(port), RENDER_WAIT_MS: '300', CLIPSEEK_TEST_HOLD: points }),
  );
  lineage.push(current);
  return current;
}
async function crash() {
  await current?.kill();
  current = null;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(p));
    });
  });

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** The stored original of a media (local blob store layout: objects/media/<user>/<media>/original.ext). */
function storedOriginal(mediaId: string) {
  for (const user of fs.readdirSync(path.join(objects, 'media'))) {
    const dir = path.join(objects, 'media', user, mediaId);
    if (fs.existsSync(dir))
      return path.join(
        dir,
        fs.readdirSync(dir).find((f) => f.startsWith('original.'))!,
      );
  }
  throw new Error(`no stored original for ${mediaId}`);
}

const state = {
  token: '',
  lib: { _id: '', rootFolderId: '' },
  mediaId: '',
  creditsBefore: 0,
};

beforeAll(async () => {
  mailbox = await startMailbox();
  port = await freePort();
});
afterAll(async () => {
  await current?.kill();
  await mailbox?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signUp(s: SpawnedServer) {
  const api = client(s.url);
  const email = uniqueEmail('crash');
  const since = mailbox.count();
  await api<User>('POST', API.register, { body: { email, password: 'crash-password-1' } });
  const mail = await mailbox.next(email, /Confirm your email/, since);
  const token = (await api<User>('POST', API.verifyEmail, { body: { token: codeFrom(mail.links[0]!) } })).body.token!;
  const libs = await api<Array<{ _id: string; rootFolderId: string; isDefault: boolean }>>('GET', API.libraries, { token });
  return { token, lib: libs.body.data!.find((l) => l.isDefault)! };
}

const creditsLeft = async (s: SpawnedServer) =>
  (await client(s.url)<BillingInfo>('GET', API.billingInfo, { token: state.token })).body.data!.creditsLeft;
const charges = async (s: SpawnedServer, reason: RegExp) =>
  (await client(s.url)<UsageHistoryEntry[]>('GET', `${API.usageHistory}?limit=100`, { token: state.token })).body.data!.filter(
    (e) => e.kind === 'charge' && reason.test(e.reason),
  );

async function startUpload(s: SpawnedServer, filename: string, bytes: Buffer) {
  const r = await client(s.url)<UploadStartAnswer>('POST', API.uploadStart(state.lib._id, state.lib.rootFolderId), {
    token: state.token,
    body: {
      filename,
      size: bytes.length,
      parts: partCount(bytes.length),
      uniqueId: fingerprintOf(bytes),
      deduplicationPolicy: { onConflict: 'error' },
    },
  });
  expect(r.status, r.body.error?.message).toBe(201);
  return r.body.data!;
}
const finish = (s: SpawnedServer, mediaId: string, opaqueData: string, parts: Array<{ partNumber: number; etag: string }>) =>
  client(s.url)<Media>('POST', API.uploadFinish(state.lib._id, mediaId), { token: state.token, body: { opaqueData, parts } });

async function waitForMedia(s: SpawnedServer, mediaId: string, statuses: string[], ms = 120_000) {
  const api = client(s.url);
  for (const until = Date.now() + ms; ;) {
    const m = (await api<Media>('GET', API.media(state.lib._id, mediaId), { token: state.token })).body.data!;
    if (statuses.includes(m.status)) return m;
    if (Date.now() > until) throw new Error(`media stayed ${m.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Held at each ingest point for our video, and the (asynchronous) log has caught up with those stages' starts. */
const heldAt = (s: SpawnedServer, points: string[]) =>
  Promise.all(
    points.map(async (p) => {
      await s.waitForLine((l) => l.msg === 'test hold' && l.point === p && l.mediaId === state.mediaId);
      const stage = p === 'ingest:charged' ? 'complete' : p.slice('ingest:'.length);
      await s.waitForLine((l) => l.msg === 'ingest stage started' && l.stage === stage && l.mediaId === state.mediaId);
    }),
  );

// Each run: where it is held (and killed), and the stages it must start: the ones the previous
// run was killed in (resumed AT that stage) and the next ones, never one already recorded done.
const ingestRuns: Array<{ hold: string[]; started: string[] }> = [
  { hold: ['ingest:probe'], started: ['probe'] },
  { hold: ['ingest:preview', 'ingest:speech'], started: ['probe', 'preview', 'speech'] },
  { hold: ['ingest:thumbnails', 'ingest:speech'], started: ['preview', 'thumbnails', 'speech'] },
  { hold: ['ingest:keyframes', 'ingest:speech'], started: ['thumbnails', 'keyframes', 'speech'] },
  { hold: ['ingest:visual', 'ingest:speech'], started: ['keyframes', 'visual', 'speech'] },
  { hold: ['ingest:descriptions'], started: ['visual', 'speech', 'descriptions'] },
  // Killed inside the last stage after the credits were taken, before it was recorded as done.
  { hold: ['ingest:charged'], started: ['descriptions', 'complete'] },
];

describe.skipIf(!embedded)('SIGKILL, then a restart on the same data directory', () => {
  it('an upload killed with some parts stored resumes from them and ends byte-identical; a finish killed half-way completes', async () => {
    const video = await makeSpeechVideo(path.join(dataDir, 'speech.mp4'), [FOX_PHRASE], { gapSeconds: 0.5 });
    const s = await boot(['ingest:probe']);
    Object.assign(state, await signUp(s));
    state.creditsBefore = await creditsLeft(s);
    // The video the ingest test follows: uploaded whole, then held at its first stage.
    const videoBytes = fs.readFileSync(video.path);
    const v = await startUpload(s, VIDEO_NAME, videoBytes);
    state.mediaId = v.media._id;
    const fin = await finish(s, v.media._id, v.opaqueData, await putParts(v.partUrls, videoBytes));
    expect(fin.status, fin.body.error?.message).toBe(200);

    // A three-part file: parts 1 and 3 stored, part 2 on the wire when the server dies.
    const bytes = randomBytes(2 * UPLOAD_CHUNK_SIZE + 123_457);
    const up = await startUpload(s, 'crash-upload.mp4', bytes);
    expect(up.partUrls).toHaveLength(3);
    const etags = await putParts(up.partUrls, bytes, [1, 3]);
    const uploadId = (JSON.parse(Buffer.from(up.opaqueData.split('.')[0]!, 'base64url').toString()) as { u: string }).u;
    const incoming = path.join(dataDir, 'blobs', 'incoming', uploadId);
    const part2 = bytes.subarray(UPLOAD_CHUNK_SIZE, 2 * UPLOAD_CHUNK_SIZE);
    const sent = part2.subarray(0, 1 << 20);
    const stalled = fetch(up.partUrls[1]!, {
      method: 'PUT',
      headers: { 'content-length': String(part2.length) },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new Uint8Array(sent));
        },
      }),
      duplex: 'half',
    } as RequestInit).catch(() => null);
    // Wait until the server has written the start of part 2 into the upload's file, then kill it.
    for (const until = Date.now() + 30_000; ;) {
      const fd = fs.openSync(incoming, 'r');
      const head = Buffer.alloc(64 * 1024);
      fs.readSync(fd, head, 0, head.length, UPLOAD_CHUNK_SIZE);
      fs.closeSync(fd);
      if (head.equals(sent.subarray(0, head.length))) break;
      if (Date.now() > until) throw new Error('part 2 never reached the disk');
      await new Promise((r) => setTimeout(r, 50));
    }
    await heldAt(s, ['ingest:probe']); // the ingest test reads this server's log: let it be written first
    await crash();
    expect(await stalled).toBeNull(); // cut off, never answered

    const s2 = await boot([...ingestRuns[1]!.hold, 'upload:assembled@crash-finish.mp4']);
    // The app's protocol (src/app/state/uploadQueue.ts): finish; a finish naming missing parts leaves
    // the upload open, so send those parts again and finish again.
    const first = await finish(s2, up.media._id, up.opaqueData, etags);
    expect(first.status).toBe(400);
    const missing = missingPartsOf(first.body.error!.message);
    expect(missing).toEqual([2]);
    const resent = await putParts(up.partUrls, bytes, missing);
    const done = await finish(s2, up.media._id, up.opaqueData, [...etags, ...resent]);
    expect(done.status, done.body.error?.message).toBe(200);
    expect(sha256(fs.readFileSync(storedOriginal(up.media._id)))).toBe(sha256(bytes));

    // Killed inside a finish, after the file was assembled and before its media was queued: the
    // upload was left 'finished' and every later finish refused. It is reopened at the next boot.
    const small = randomBytes(70_000);
    const f = await startUpload(s2, 'crash-finish.mp4', small);
    const fParts = await putParts(f.partUrls, small);
    const cut = finish(s2, f.media._id, f.opaqueData, fParts).catch(() => null);
    await s2.waitForLine((l) => l.msg === 'test hold' && l.point === 'upload:assembled' && l.mediaId === f.media._id);
    await heldAt(s2, ingestRuns[1]!.hold);
    await crash();
    expect(await cut).toBeNull();
    const s3 = await boot(ingestRuns[2]!.hold);
    const again = await finish(s3, f.media._id, f.opaqueData, fParts);
    expect(again.status, again.body.error?.message).toBe(200);
    expect(again.body.data!.status).toBe('queued');
    expect(sha256(fs.readFileSync(storedOriginal(f.media._id)))).toBe(sha256(small));
  }, 180_000);

  it('ingest killed in each stage resumes at that stage, completes, and charges once', async () => {
    const mediaId = state.mediaId;
    expect(mediaId).not.toBe('');
    const sorted = (xs: string[]) => [...new Set(xs)].sort();
    const done: string[] = [];
    for (const [i, run] of ingestRuns.entries()) {
      // The first runs are the servers the upload test started (and killed).
      const s = i < lineage.length ? lineage[i]! : await boot(run.hold);
      await heldAt(s, run.hold);
      const started = stagesStarted(s, mediaId);
      expect(sorted(started), `run ${i + 1}`).toEqual(sorted(run.started));
      expect(
        started.filter((st) => done.includes(st)),
        `run ${i + 1} redid a finished stage`,
      ).toEqual([]);
      if (i > 0)
        expect(s.lines.find((l) => l.msg === 'ingest resumed' && l.mediaId === mediaId)?.done).toEqual(expect.arrayContaining(done));
      done.push(...stagesDone(s, mediaId));
      if (s === current) await crash();
    }

    // The next server also holds the renders of the next test at their start.
    const s = await boot(['render:started']);
    const m = await waitForMedia(s, mediaId, ['completed', 'errored', 'invalid']);
    expect(m.status, m.error?.message).toBe('completed');
    expect(stagesStarted(s, mediaId)).toEqual(['complete']);
    const cost = ingestCost(m.metadata.video.duration);
    expect(await charges(s, /^Indexing crash-speech/)).toEqual([expect.objectContaining({ amount: cost })]);
    expect(state.creditsBefore - (await creditsLeft(s))).toBe(cost);
    state.creditsBefore -= cost;
  }, 420_000);

  it('a paid render killed mid-way is retried after the restart and charged once; a failed render charges nothing', async () => {
    let s = current!;
    const api = () => client(s.url);
    const clip = { libraryId: state.lib._id, mediaId: state.mediaId, start: 0, end: 2 };
    const post = await api()<RenderAnswer>('POST', API.renderCompilation, {
      token: state.token,
      body: { clips: [clip], watermark: false },
    });
    expect(post.status, post.body.error?.message).toBe(202);
    const renderId = post.body.data!.renderId;
    await s.waitForLine((l) => l.msg === 'test hold' && l.point === 'render:started' && l.renderId === renderId);
    await crash();

    // Retried after the restart (pg-boss job handed back at boot); killed again right after charging.
    s = await boot(['render:charged']);
    await s.waitForLine((l) => l.msg === 'test hold' && l.point === 'render:charged' && l.renderId === renderId);
    await crash();

    // A dead server's pid may belong to another process by the next start (containers reuse pids):
    // here its lock (in the pid-only form older versions wrote) names a live process that started
    // after the lock was written. It is recognised as stale and taken over, not a refusal to start.
    const lock = path.join(dataDir, 'clipseek.lock');
    const written = fs.statSync(lock).mtime;
    const squatter = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(lock, String(squatter.pid));
      fs.utimesSync(lock, written, written);
      s = await boot();
    } finally {
      squatter.kill('SIGKILL');
    }
    let answer: RenderAnswer;
    for (const until = Date.now() + 60_000; ;) {
      const r = await api()<RenderAnswer>('GET', API.renderStatus(renderId), { token: state.token });
      expect(r.status, r.body.error?.message).toBe(200);
      answer = r.body.data!;
      if (answer.url) break;
      if (Date.now() > until) throw new Error(`render stayed ${answer.status}`);
      await new Promise((res) => setTimeout(res, 250));
    }
    const file = Buffer.from(await (await fetch(answer.url)).arrayBuffer());
    expect(file.subarray(4, 8).toString()).toBe('ftyp');
    const cost = watermarkRemovalCost(2);
    expect(await charges(s, /^Download without watermark \(mp4\)/)).toEqual([expect.objectContaining({ amount: cost })]);
    expect(state.creditsBefore - (await creditsLeft(s))).toBe(cost);

    // A render that fails (its sources are gone: preview and original) takes nothing.
    fs.rmSync(path.join(objects, 'derived', state.mediaId, 'hls'), { recursive: true, force: true });
    fs.rmSync(storedOriginal(state.mediaId));
    const gif = await api()<RenderAnswer>('POST', API.renderGif(state.lib._id, state.mediaId), {
      token: state.token,
      body: { start: 0, end: 1, watermark: false },
    });
    // A render that fails within RENDER_WAIT_MS is answered by the POST itself (200, status
    // 'failed' with its reason); a slower failure answers 202 and the poll below sees it.
    expect([200, 202]).toContain(gif.status);
    let failed = gif;
    // The client's poll (GET answers the render's state until its URL, or the render's failure).
    for (const until = Date.now() + 60_000; failed.body.data?.status !== 'failed';) {
      expect(failed.status).toBeLessThan(300);
      expect(failed.body.data?.url).toBeUndefined();
      if (Date.now() > until) throw new Error('the gif render did not finish');
      await new Promise((res) => setTimeout(res, 250));
      failed = await api()<RenderAnswer>('GET', API.renderStatus(gif.body.data!.renderId), { token: state.token });
    }
    expect(failed.body.data?.error).toBe(MSG_RENDER.failedReason);
    expect(await charges(s, /^Download without watermark \(gif\)/)).toEqual([]);
    expect(state.creditsBefore - (await creditsLeft(s))).toBe(cost);
    await s.stop();
    current = null;
  }, 240_000);
});

describe('the blob store never serves a half-written object', () => {
  it('a write killed half-way leaves nothing under its key, only a temp file the sweep removes', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-blobs-'));
    const script = path.join(root, 'writer.ts');
    // A writer that streams 1 MiB of an object, says so, and then waits to be killed mid-write.
    fs.writeFileSync(
      script,
      `import { PassThrough } from 'node:stream';
import { LocalBlobStore } from ${JSON.stringify(path.resolve('src/server/adapters/blobs/localBlobStore.ts'))};
const store = new LocalBlobStore(${JSON.stringify(root)}, 'secret', () => 'http://127.0.0.1');
const body = new PassThrough();
void store.put('renders/u/r.mp4', body);
body.write(Buffer.alloc(1 << 20, 7), () => setTimeout(() => console.log('half'), 200));
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (c: Buffer) => c.toString().includes('half') && resolve());
      child.once('exit', (code) => reject(new Error(`writer exited (${code})`)));
    });
    const tmp = path.join(root, 'tmp');
    expect(fs.readdirSync(tmp).map((f) => fs.statSync(path.join(tmp, f)).size)).toEqual([1 << 20]);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));

    const { LocalBlobStore } = await import('../../src/server/adapters/blobs/localBlobStore');
    const store = new LocalBlobStore(root, 'secret', () => 'http://127.0.0.1');
    expect(await store.exists('renders/u/r.mp4')).toBe(false);
    expect(fs.existsSync(path.join(root, 'objects', 'renders', 'u', 'r.mp4'))).toBe(false);
    // The leftover goes once it is older than the grace period (and not before).
    expect(await store.sweepTemp(new Date(Date.now() - 60_000), () => false)).toBe(0);
    expect(await store.sweepTemp(new Date(Date.now() + 60_000), () => false)).toBe(1);
    expect(fs.readdirSync(tmp)).toEqual([]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('the orphan-blob sweep', () => {
  it('removes old blobs no row refers to and temp leftovers, keeps referenced, recent and demo ones', async () => {
    const { startTestServer } = await import('./support/harness');
    const { verifiedUser, defaultLibrary, uploadFile, startUpload: begin } = await import('./support/upload');
    const { BLOB_SWEEP_GRACE_MS } = await import('../../src/server/modules/storage/blobSweep.service');
    const noDemo = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-nodemo-'));
    const t = await startTestServer({ DEMO_DIR: noDemo });
    try {
      const { token } = await verifiedUser(t, 'sweep');
      const lib = await defaultLibrary(t, token);
      // A media (not a video, so indexing stops at once) whose original the media row names.
      const kept = await uploadFile(t, token, lib._id, lib.rootFolderId, 'kept.mp4', randomBytes(70_000));
      expect(kept.status, kept.body.error?.message).toBe(200);
      const mediaId = kept.body.data!._id;
      const originalKey = kept.body.data!.metadata.fileMappings.originalMedia;
      // An upload still open: its partial file is not a leftover, however old.
      const open = await begin(t, token, lib._id, lib.rootFolderId, 'open.mp4', randomBytes(50_000));
      const openId = (JSON.parse(Buffer.from(open.body.data!.opaqueData.split('.')[0]!, 'base64url').toString()) as { u: string }).u;

      const blobs = t.server.blobs;
      const root = path.join(t.dataDir, 'blobs');
      const stranger = '00000000-0000-4000-8000-000000000001';
      const old = {
        referencedOriginal: originalKey,
        referencedDerived: `derived/${mediaId}/strip.webp`,
        demo: 'demo/0123456789abcdef/sample.mp4',
        orphanOriginal: `media/${stranger}/${stranger}/original.mp4`,
        orphanDerived: `derived/${stranger}/kf/1000.jpg`,
        orphanRender: `renders/${stranger}/${stranger}.mp4`,
      };
      const young = `derived/${stranger}/poster.webp`;
      for (const k of [old.referencedDerived, old.demo, old.orphanOriginal, old.orphanDerived, old.orphanRender, young])
        await blobs.put(k, Buffer.from(k));
      fs.writeFileSync(path.join(root, 'tmp', 'cut-off.part'), 'half');
      fs.writeFileSync(path.join(root, 'incoming', stranger), 'abandoned');
      const longAgo = new Date(Date.now() - BLOB_SWEEP_GRACE_MS - 3600_000);
      for (const k of Object.values(old)) fs.utimesSync(path.join(root, 'objects', k), longAgo, longAgo);
      for (const f of [path.join(root, 'tmp', 'cut-off.part'), path.join(root, 'incoming', stranger), path.join(root, 'incoming', openId)])
        fs.utimesSync(f, longAgo, longAgo);

      // A killed ingest stage's scratch folder, a day old, and one of a stage running now.
      const work = path.join(t.dataDir, 'work');
      const cutOff = path.join(work, `${stranger}-keyframes`);
      const running = path.join(work, `${mediaId}-visual`);
      for (const d of [cutOff, running, path.join(work, 'links')]) fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(cutOff, '0001.jpg'), 'frame');
      fs.utimesSync(cutOff, longAgo, longAgo);
      fs.utimesSync(path.join(work, 'links'), longAgo, longAgo);

      expect(await t.server.blobSweep.sweep()).toEqual({ objects: 3, temp: 2, work: 1 });
      // (kept.mp4's own stages may come and go in there meanwhile)
      expect(fs.existsSync(cutOff)).toBe(false);
      expect(fs.existsSync(running) && fs.existsSync(path.join(work, 'links'))).toBe(true);
      for (const k of [old.referencedOriginal, old.referencedDerived, old.demo, young]) expect(await blobs.exists(k), k).toBe(true);
      for (const k of [old.orphanOriginal, old.orphanDerived, old.orphanRender]) expect(await blobs.exists(k), k).toBe(false);
      expect(fs.readdirSync(path.join(root, 'tmp'))).toEqual([]);
      expect(fs.readdirSync(path.join(root, 'incoming'))).toEqual([openId]);
      // It runs as a scheduled job.
      expect((await t.server.boss.getSchedules()).map((s) => s.name)).toContain('blobs.sweep');
    } finally {
      await t.close();
      fs.rmSync(noDemo, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * A TCP proxy in front of the test PostgreSQL: `cut()` drops every connection and refuses new ones,
 * as a database restart does to its clients; `restore()` accepts again on the same port.
 */
async function dbProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  let proxyPort = 0;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((inbound) => {
        const outbound = net.connect(Number(target.port || 5432), target.hostname);
        for (const sock of [inbound, outbound]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => undefined);
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.listen(proxyPort, '127.0.0.1', () => {
        proxyPort = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    url(database: string) {
      const u = new URL(target.toString());
      u.hostname = '127.0.0.1';
      u.port = String(proxyPort);
      u.pathname = `/${database}`;
      return u.toString();
    },
    async cut() {
      await new Promise<void>((resolve) => {
        server!.close(() => resolve());
        sockets.forEach((sock) => sock.destroy());
      });
    },
    restore: listen,
    async close() {
      await this.cut();
    },
  };
}

describe.skipIf(embedded)('PostgreSQL restarted under load', () => {
  it('the app reconnects by itself: requests and jobs work again without restarting it', async () => {
    const pg = (await import('pg')).default;
    const { startServer } = await import('../../src/server/main');
    const { JWT_SECRET } = await import('./support/harness');
    const admin = new URL(process.env.TEST_DATABASE_URL!);
    const name = `cs_crash_${Math.random().toString(36).slice(2, 8)}`;
    const run = async (sql: string) => {
      const c = new pg.Client({ connectionString: admin.toString() });
      await c.connect();
      await c.query(sql);
      await c.end();
    };
    await run(`create database ${name}`);
    const proxy = await dbProxy(admin);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-pgrestart-'));
    fs.mkdirSync(path.join(dir, 'no-demo'));
    const server = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: proxy.url(name),
      SMTP_URL: mailbox.url,
      LOG_LEVEL: 'silent',
      JWT_SECRET,
      WEB_DIR: path.join(dir, 'no-web'),
      DEMO_DIR: path.join(dir, 'no-demo'),
    });
    try {
      const s = { url: server.url } as SpawnedServer;
      Object.assign(state, await signUp(s));
      const api = client(server.url);
      const call = () =>
        api('GET', API.libraries, { token: state.token }).then(
          (r) => r.status,
          () => 0,
        );
      // Load: 8 callers one request after another, through the outage.
      let stop = false;
      const statuses: Array<{ at: number; status: number }> = [];
      const load = Promise.all(
        Array.from({ length: 8 }, async () => {
          while (!stop) {
            const status = await call();
            statuses.push({ at: Date.now(), status });
          }
        }),
      );
      await new Promise((r) => setTimeout(r, 500));
      const cutAt = Date.now();
      await proxy.cut();
      await new Promise((r) => setTimeout(r, 2000));
      await proxy.restore();
      const restoredAt = Date.now();
      // Every request is answered again (a few in flight may still fail while the pool reconnects).
      for (const until = Date.now() + 15_000; ;) {
        const recent = statuses.filter((x) => x.at > Date.now() - 1000);
        if (recent.length >= 8 && recent.every((x) => x.status === 200)) break;
        if (Date.now() > until) throw new Error(`still failing: ${JSON.stringify(recent.slice(-5))}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      stop = true;
      await load;
      expect(statuses.some((x) => x.at > cutAt && x.at < restoredAt && x.status !== 200)).toBe(true);
      expect(statuses.filter((x) => x.at < cutAt && x.status !== 200)).toEqual([]);
      // The job queue runs again too: an upload after the restart is picked up and indexed
      // (random bytes, so indexing ends at once as not a video).
      const bytes = randomBytes(30_000);
      const up = await startUpload({ url: server.url } as SpawnedServer, 'after-restart.mp4', bytes);
      const fin = await finish({ url: server.url } as SpawnedServer, up.media._id, up.opaqueData, await putParts(up.partUrls, bytes));
      expect(fin.status, fin.body.error?.message).toBe(200);
      const m = await waitForMedia({ url: server.url } as SpawnedServer, up.media._id, ['invalid', 'errored', 'completed'], 30_000);
      expect(m.status).toBe('invalid');
    } finally {
      await server.close();
      await proxy.close();
      await run(`drop database if exists ${name} with (force)`);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
