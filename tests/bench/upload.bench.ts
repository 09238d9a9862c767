// Uploads 1 GiB through the real HTTP path (start -> 8 parallel 20 MiB part PUTs -> finish) on the
// local blob store and compares its throughput with a raw loopback copy of the same bytes (a TCP
// socket on 127.0.0.1 into a file on the same disk).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { API, partCount, UPLOAD_CHUNK_SIZE, UPLOAD_PART_CONCURRENCY, type Media, type UploadStartAnswer } from '../../src/contract';
import { fingerprintOfBytes } from '../../src/server/fingerprint';
import { startServer } from '../../src/server/main';
import { client } from '../integration/support/harness';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 ** 3);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-upbench-'));
const bytes = randomBytes(SIZE);
const mb = SIZE / 1024 ** 2;

async function rawLoopback(): Promise<number> {
  const dest = path.join(dir, 'raw.bin');
  let done!: () => void;
  const written = new Promise<void>((resolve) => (done = resolve));
  const server = net.createServer((sock) => {
    const out = fs.createWriteStream(dest);
    sock.pipe(out);
    out.on('finish', () => done());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as net.AddressInfo).port;
  const t0 = performance.now();
  const sock = net.connect(port, '127.0.0.1');
  await once(sock, 'connect');
  for (let off = 0; off < SIZE; off += UPLOAD_CHUNK_SIZE) {
    if (!sock.write(bytes.subarray(off, Math.min(SIZE, off + UPLOAD_CHUNK_SIZE)))) await once(sock, 'drain');
  }
  sock.end();
  await written;
  const secs = (performance.now() - t0) / 1000;
  server.close();
  if (fs.statSync(dest).size !== SIZE) throw new Error('raw copy incomplete');
  fs.rmSync(dest);
  return mb / secs;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: UPLOAD_PART_CONCURRENCY });
/** A part PUT as a browser sends it: one request, the whole 20 MiB body, keep-alive connections. */
function put(url: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent, headers: { 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function viaApi(): Promise<{ mbps: number; finishMs: number }> {
  const server = await startServer({
    PORT: '0',
    DATA_DIR: path.join(dir, 'data'),
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dir, 'none'),
    STORAGE_LIMIT_HOURS: '1000',
  });
  try {
    const api = client(server.url);
    const reg = await api('POST', API.register, { body: { email: 'bench@example.com', password: 'bench-password' } });
    await server.database.db.updateTable('users').set({ is_verified: true }).execute();
    const token = reg.body.token!;
    const libs = await api<Array<{ _id: string; rootFolderId: string; isDefault: boolean }>>('GET', API.libraries, { token });
    const lib = libs.body.data!.find((l) => l.isDefault)!;
    const uniqueId = fingerprintOfBytes(bytes);
    const t0 = performance.now();
    const start = await api<UploadStartAnswer>('POST', API.uploadStart(lib._id, lib.rootFolderId), {
      token,
      body: { filename: 'bench.mp4', size: SIZE, parts: partCount(SIZE), uniqueId, deduplicationPolicy: { onConflict: 'error' } },
    });
    const { partUrls, media, opaqueData } = start.body.data!;
    const queue = partUrls.map((url, i) => ({ url, n: i + 1 }));
    await Promise.all(
      Array.from({ length: UPLOAD_PART_CONCURRENCY }, async () => {
        for (let p = queue.shift(); p; p = queue.shift()) {
          const status = await put(p.url, bytes.subarray((p.n - 1) * UPLOAD_CHUNK_SIZE, Math.min(SIZE, p.n * UPLOAD_CHUNK_SIZE)));
          if (status !== 200) throw new Error(`part ${p.n}: ${status}`);
        }
      }),
    );
    const f0 = performance.now();
    const fin = await api<Media>('POST', API.uploadFinish(lib._id, media._id), { token, body: { opaqueData } });
    const t1 = performance.now();
    if (fin.status !== 200) throw new Error(`finish ${fin.status}: ${fin.body.error?.message}`);
    return { mbps: mb / ((t1 - t0) / 1000), finishMs: t1 - f0 };
  } finally {
    await server.close();
  }
}

const raw = await rawLoopback();
const up = await viaApi();
console.log(`bytes: ${mb.toFixed(0)} MiB in ${partCount(SIZE)} parts of 20 MiB, ${UPLOAD_PART_CONCURRENCY} in flight`);
console.log(`raw loopback copy   ${raw.toFixed(0).padStart(6)} MiB/s`);
console.log(`upload via the API  ${up.mbps.toFixed(0).padStart(6)} MiB/s  (finish ${up.finishMs.toFixed(0)} ms)`);
console.log(`ratio               ${((up.mbps / raw) * 100).toFixed(0).padStart(5)} %   (target >= 50 %)`);
fs.rmSync(dir, { recursive: true, force: true });
