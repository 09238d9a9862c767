// Load: 50 concurrent searches (visual text, transcript and unified at once) fired by autocannon at
// the real server, while 4 uploads go in (and their ingest starts) and 2 compilations render.
// The server is its own process on loopback (as deployed: the load generator does not share its
// event loop), on a fresh data directory, with a library indexed beforehand from a generated video
// with photos, on-screen text and speech. Bounded: LOAD_REQUESTS searches (default 1,500) or
// LOAD_SECONDS (default 45), whichever comes first; uploads and renders each wait at most 60 s.
// Prints errors (target 0), throughput, p50/p95 per call (target: searches p95 <= 500 ms).
// LOAD_SIDE_WORK=0: the searches alone (what the side work costs them).
// Fails when no request went out, or when anything errored.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { API, type RenderAnswer, type User } from '../../src/contract';
import { makeTestVideo } from '../fixtures/makeMedia';
import { client } from '../integration/support/harness';
import { makeVideo, uploadFile, waitForStatus } from '../integration/support/upload';

const CONNECTIONS = 50;
const REQUESTS = Number(process.env.LOAD_REQUESTS ?? 1500);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 45);
const SIDE_WORK_TIMEOUT_MS = 60_000;
const SIDE_WORK = process.env.LOAD_SIDE_WORK !== '0';

const pct = (xs: number[], p: number) =>
  xs.length ? xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]! : NaN;
const ms = (x: number) => `${x.toFixed(0).padStart(6)} ms`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-load-'));
const media = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-load-media-'));
let output = '';
// LOAD_PROFILE=<dir>: the server writes a V8 CPU profile there when it stops (where its time went).
const profile = process.env.LOAD_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.LOAD_PROFILE)}`] : [];
const server = spawn(process.execPath, [...profile, '--import', 'tsx', path.resolve(import.meta.dirname, '../../src/server/main.ts')], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', WEB_DIR: path.join(dataDir, 'no-web') },
});
server.stdout.on('data', (c: Buffer) => (output += c.toString()));
server.stderr.on('data', (c: Buffer) => (output += c.toString()));
const stopServer = async () => {
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(media, { recursive: true, force: true });
};

try {
  const deadline = Date.now() + 120_000;
  let baseUrl = '';
  while (!baseUrl) {
    baseUrl = /running at (http:\/\/\S+)/.exec(output)?.[1]?.replace(/\/$/, '') ?? '';
    if (server.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    if (!baseUrl) await new Promise((r) => setTimeout(r, 200));
  }
  const api = client(baseUrl);
  const t = { api } as never;

  // A verified user (the code read from the outbox) and a library indexed from a generated video.
  const email = 'load-bench@example.com';
  await api<User>('POST', API.register, { body: { email, password: 'load-bench-password' } });
  const mailFile = fs.readdirSync(path.join(dataDir, 'mail')).find((f) => f.includes(email))!;
  const code = /[?&]code=([^\s&]+)/.exec(fs.readFileSync(path.join(dataDir, 'mail', mailFile), 'utf8'))![1]!;
  const token = (await api<User>('POST', API.verifyEmail, { body: { token: code } })).body.token!;
  const libraries = await api<Array<{ _id: string; rootFolderId: string; isDefault: boolean; isDemo: boolean; latestMediaIds: string[] }>>(
    'GET',
    API.libraries,
    { token },
  );
  const demo = libraries.body.data!.find((l) => l.isDemo);
  const lib = libraries.body.data!.find((l) => l.isDefault)!;
  const video = await makeTestVideo(media);
  const t0 = performance.now();
  const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, 'indexed.mp4', fs.readFileSync(video.path));
  if (fin.status !== 200) throw new Error(`the upload answered ${fin.status}: ${fin.body.error?.message}`);
  const indexed = fin.body.data!;
  await waitForStatus(t, token, lib._id, indexed._id, ['completed'], 600_000);
  for (const id of demo?.latestMediaIds ?? []) await waitForStatus(t, token, demo!._id, id, ['completed', 'errored'], 600_000);
  console.log(`set-up: a ${video.duration.toFixed(0)} s video indexed in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  // The side work, prepared before the clock starts: 4 new videos to upload, 2 renders.
  const uploads = (SIDE_WORK ? [0, 1, 2, 3] : []).map((i) => ({ name: `load-${i}.mp4`, bytes: makeVideo(20 + i, '640x360') }));
  const renderBodies = (SIDE_WORK ? [0, 1] : []).map((i) => ({
    clips: [0, 1].map((j) => ({ libraryId: lib._id, mediaId: indexed._id, start: i + j * 10, end: i + j * 10 + 8 })),
    height: 720,
  }));

  const searchBodies = {
    visual: ['dog', 'horse', 'bird', 'giraffe', 'sunset', 'animal', 'red car', 'person'].map((text) => ({ text })),
    transcript: ['quick brown fox', 'lazy dog', 'jumps over', 'the fox'].map((text) => ({ text })),
    unified: ['dog', 'fox', 'sunset', 'horse'].map((text) => ({ text })),
  };
  type Kind = keyof typeof searchBodies;
  const pathOf = (kind: Kind) =>
    kind === 'visual' ? API.searchVisual(lib._id) : kind === 'transcript' ? API.searchTranscript(lib._id) : API.searchUnified(lib._id);
  const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` };
  const requestsOf = (kind: Kind) =>
    searchBodies[kind].map((b) => ({ method: 'POST', path: pathOf(kind), headers, body: JSON.stringify(b) }));
  for (const kind of Object.keys(searchBodies) as Kind[]) {
    const check = await api('POST', pathOf(kind), { token, body: searchBodies[kind][0]!, format: 'json' });
    if (check.status !== 200) throw new Error(`${kind} search answered ${check.status}: ${check.body.error?.message}`);
  }

  const side: Array<{ what: string; ms: number; ok: boolean; detail: string }> = [];
  const timed = async (what: string, fn: () => Promise<string>) => {
    const s = performance.now();
    try {
      const detail = await Promise.race([
        fn(),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('over 60 s')), SIDE_WORK_TIMEOUT_MS)),
      ]);
      side.push({ what, ms: performance.now() - s, ok: true, detail });
    } catch (e) {
      side.push({ what, ms: performance.now() - s, ok: false, detail: (e as Error).message });
    }
  };
  const uploading = uploads.map((u) =>
    timed(`upload ${u.name} (${(u.bytes.length / 1e6).toFixed(1)} MB)`, async () => {
      const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, u.name, u.bytes);
      if (fin.status !== 200) throw new Error(`finish answered ${fin.status}: ${fin.body.error?.message}`);
      return `then ${fin.body.data!.status}`;
    }),
  );
  const rendering = renderBodies.map((body, i) =>
    timed(`render ${i + 1} (2 clips, 16 s, 720p)`, async () => {
      let r = await api<RenderAnswer>('POST', API.renderCompilation, { token, body });
      while (r.status === 202 || (r.status === 200 && !r.body.data!.url)) {
        await new Promise((res) => setTimeout(res, 1000));
        r = await api<RenderAnswer>('GET', API.renderStatus(r.body.data!.renderId), { token });
      }
      if (r.status !== 200) throw new Error(`answered ${r.status}: ${r.body.error?.message}`);
      return 'done';
    }),
  );

  // Three autocannon instances at once, one per kind of search, 50 connections in all; autocannon's
  // histogram has no p95, so each instance's responses are also recorded here.
  const share = { visual: 17, transcript: 17, unified: 16 } satisfies Record<Kind, number>;
  const perKind = {} as Record<Kind, { times: number[]; codes: Record<number, number>; result?: Awaited<ReturnType<typeof autocannon>> }>;
  const started = performance.now();
  const cannons = (Object.keys(share) as Kind[]).map(async (kind) => {
    const k = (perKind[kind] = { times: [] as number[], codes: {} as Record<number, number> });
    const instance = autocannon({
      url: baseUrl,
      title: kind,
      connections: share[kind],
      amount: Math.round((REQUESTS * share[kind]) / CONNECTIONS),
      timeout: 30,
      requests: requestsOf(kind),
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      k.times.push(responseTime);
      k.codes[statusCode] = (k.codes[statusCode] ?? 0) + 1;
    });
    // With `amount` set autocannon ignores `duration`: the time bound is kept here.
    const bound = setTimeout(() => instance.stop(), SECONDS * 1000);
    perKind[kind].result = await instance;
    clearTimeout(bound);
  });
  await Promise.all(cannons);
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all([...uploading, ...rendering]);

  const results = Object.values(perKind).map((k) => k.result!);
  const result = {
    sent: results.reduce((n, r) => n + r.requests.sent, 0),
    errors: results.reduce((n, r) => n + r.errors, 0),
    timeouts: results.reduce((n, r) => n + r.timeouts, 0),
    non2xx: results.reduce((n, r) => n + r.non2xx, 0),
  };
  const sent = result.sent;
  const answered = Object.values(perKind).reduce((n, k) => n + k.times.length, 0);
  console.log(
    `\n${CONNECTIONS} connections, ${sent} search requests sent, ${answered} answered in ${elapsed.toFixed(1)} s ` +
      `(${(answered / elapsed).toFixed(1)} req/s); errors ${result.errors} (timeouts ${result.timeouts}), non-2xx ${result.non2xx}`,
  );
  console.log('call         answered    2xx   p50        p95        p99        max');
  for (const [kind, k] of Object.entries(perKind)) {
    const ok = Object.entries(k.codes)
      .filter(([c]) => c.startsWith('2'))
      .reduce((n, [, v]) => n + v, 0);
    console.log(
      `${kind.padEnd(12)} ${String(k.times.length).padStart(8)} ${String(ok).padStart(6)} ${ms(pct(k.times, 50))} ${ms(pct(k.times, 95))} ${ms(pct(k.times, 99))} ${ms(Math.max(...k.times))}`,
    );
  }
  const all = Object.values(perKind).flatMap((k) => k.times);
  console.log(
    `${'all'.padEnd(12)} ${String(all.length).padStart(8)} ${' '.repeat(6)} ${ms(pct(all, 50))} ${ms(pct(all, 95))} ${ms(pct(all, 99))}`,
  );
  console.log(`searches p95 ${pct(all, 95) <= 500 ? '<=' : '>'} 500 ms (target <= 500 ms)`);
  console.log(SIDE_WORK ? '\nside work during the searches:' : '\nno side work (LOAD_SIDE_WORK=0)');
  for (const s of side) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'} ${s.what.padEnd(34)} ${ms(s.ms)}  ${s.detail}`);

  if (sent === 0 || answered === 0) throw new Error('no search request went out: the benchmark measured nothing');
  const failures = result.errors + result.non2xx + side.filter((s) => !s.ok).length;
  if (failures) throw new Error(`${failures} errors (target 0)`);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  await stopServer();
}
