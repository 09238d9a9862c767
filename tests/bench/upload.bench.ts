// Uploads 1 GiB through the real HTTP path (start -> 8 parallel 20 MiB part PUTs -> finish) on the
// local blob store and compares its throughput with a raw loopback copy of the same bytes (a TCP
// socket on 127.0.0.1 into a file on the same disk). In both cases the sending side runs in its own
// thread, as a browser is its own process, so the receiving side is what is measured.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { API, partCount, UPLOAD_CHUNK_SIZE, UPLOAD_PART_CONCURRENCY, type Media, type UploadStartAnswer } from '../../src/contract';
import { fingerprintOfBytes } from '../../src/server/fingerprint';
import { startServer } from '../../src/server/main';
import { client } from '../integration/support/harness';
import { waitForStatus } from '../integration/support/upload';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-upbench-'));
const shared = new SharedArrayBuffer(SIZE);
const bytes = Buffer.from(shared);
for (let off = 0; off < SIZE; off += 1 << 20) randomBytes(Math.min(1 << 20, SIZE - off)).copy(bytes, off);
const mb = SIZE / 1024 ** 2;

/** The sending side: a raw socket copy, or the client's part PUTs (8 in flight, keep-alive). */
const SENDER = `
const { workerData, parentPort } = require('node:worker_threads');
const http = require('node:http');
const net = require('node:net');
const bytes = Buffer.from(workerData.shared);
const CH = workerData.chunk;
async function raw() {
  const sock = net.connect(workerData.port, '127.0.0.1');
  await new Promise((r) => sock.once('connect', r));
  for (let off = 0; off < bytes.length; off += CH) {
    if (!sock.write(bytes.subarray(off, Math.min(bytes.length, off + CH)))) await new Promise((r) => sock.once('drain', r));
  }
  sock.end();
}
async function parts() {
  const agent = new http.Agent({ keepAlive: true, maxSockets: workerData.concurrency });
  const queue = workerData.urls.map((url, i) => ({ url, n: i + 1 }));
  const put = (url, body) => new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent, headers: { 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error('part ' + res.statusCode))));
    });
    req.on('error', reject);
    req.end(body);
  });
  await Promise.all(Array.from({ length: workerData.concurrency }, async () => {
    for (let p = queue.shift(); p; p = queue.shift()) await put(p.url, bytes.subarray((p.n - 1) * CH, Math.min(bytes.length, p.n * CH)));
  }));
  agent.destroy();
}
(workerData.mode === 'raw' ? raw() : parts()).then(() => parentPort.postMessage('ok'), (e) => parentPort.postMessage(String(e)));
`;

async function send(data: Record<string, unknown>) {
  const w = new Worker(SENDER, {
    eval: true,
    workerData: {
      shared,
      chunk: UPLOAD_CHUNK_SIZE,
      concurrency: Number(process.env.BENCH_CONCURRENCY ?? UPLOAD_PART_CONCURRENCY),
      ...data,
    },
  });
  const [msg] = (await once(w, 'message')) as [string];
  await w.terminate();
  if (msg !== 'ok') throw new Error(msg);
}

async function rawLoopback(): Promise<number> {
  const dest = path.join(dir, 'raw.bin');
  let done!: () => void;
  const written = new Promise<void>((resolve) => (done = resolve));
  const server = net.createServer((sock) => {
    const out = fs.createWriteStream(dest, { highWaterMark: 1 << 20 });
    sock.pipe(out);
    out.on('finish', () => done());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const t0 = performance.now();
  await send({ mode: 'raw', port: (server.address() as net.AddressInfo).port });
  await written;
  const secs = (performance.now() - t0) / 1000;
  server.close();
  if (fs.statSync(dest).size !== SIZE) throw new Error('raw copy incomplete');
  fs.rmSync(dest);
  return mb / secs;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
// The first round of each warms page cache, allocator and JIT: it is shown but not counted.
const median = (xs: number[]) => {
  const counted = xs.length > 1 ? xs.slice(1) : xs;
  return counted.slice().sort((a, b) => a - b)[Math.floor(counted.length / 2)]!;
};

async function viaApi(): Promise<Array<{ mbps: number; finishMs: number }>> {
  const server = await startServer({
    PORT: '0',
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dir, 'none'),
  });
  try {
    const api = client(server.url);
    const reg = await api('POST', API.register, { body: { email: 'bench@example.com', password: 'bench-password' } });
    await server.database.db.updateTable('users').set({ is_verified: true }).execute();
    const token = reg.body.token!;
    const libs = await api<Array<{ _id: string; rootFolderId: string; isDefault: boolean }>>('GET', API.libraries, { token });
    const lib = libs.body.data!.find((l) => l.isDefault)!;
    // Signing up indexes the demo library; let that finish so it does not compete with the upload.
    const demo = (
      await api<Array<{ _id: string; isDemo: boolean; latestMediaIds: string[] }>>('GET', API.libraries, { token })
    ).body.data!.find((l) => l.isDemo)!;
    for (const id of demo.latestMediaIds) await waitForStatus({ api } as never, token, demo._id, id, ['completed', 'errored'], 300_000);
    const runs: Array<{ mbps: number; finishMs: number }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      bytes.writeUInt32BE(round, 0); // a new file each round, or dedup would refuse it
      const uniqueId = fingerprintOfBytes(bytes);
      const t0 = performance.now();
      const start = await api<UploadStartAnswer>('POST', API.uploadStart(lib._id, lib.rootFolderId), {
        token,
        body: { filename: 'bench.mp4', size: SIZE, parts: partCount(SIZE), uniqueId, deduplicationPolicy: { onConflict: 'error' } },
      });
      const { partUrls, media, opaqueData } = start.body.data!;
      await send({ mode: 'parts', urls: partUrls });
      const f0 = performance.now();
      const fin = await api<Media>('POST', API.uploadFinish(lib._id, media._id), { token, body: { opaqueData } });
      const t1 = performance.now();
      if (fin.status !== 200) throw new Error(`finish ${fin.status}: ${fin.body.error?.message}`);
      runs.push({ mbps: mb / ((t1 - t0) / 1000), finishMs: t1 - f0 });
      // like the raw copy, leave no gigabyte behind for the next round's writeback to compete with
      await api('DELETE', API.media(lib._id, media._id), { token });
    }
    return runs;
  } finally {
    await server.close();
  }
}

// Loopback figures swing a lot on a shared 2-core machine: several rounds each, medians compared.
const raws: number[] = [];
for (let i = 0; i < ROUNDS; i++) raws.push(await rawLoopback());
const ups = await viaApi();
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(' / ');
const raw = median(raws);
const up = median(ups.map((u) => u.mbps));
console.log(`bytes: ${mb.toFixed(0)} MiB in ${partCount(SIZE)} parts of 20 MiB, ${UPLOAD_PART_CONCURRENCY} in flight, ${ROUNDS} rounds`);
console.log(`raw loopback copy   median ${raw.toFixed(0).padStart(5)} MiB/s   (rounds ${fmt(raws)})`);
console.log(
  `upload via the API  median ${up.toFixed(0).padStart(5)} MiB/s   (rounds ${fmt(ups.map((u) => u.mbps))}; finish ${fmt(ups.map((u) => u.finishMs))} ms)`,
);
console.log(`ratio               ${((up / raw) * 100).toFixed(0).padStart(5)} %   (target >= 50 %)`);
fs.rmSync(dir, { recursive: true, force: true });
