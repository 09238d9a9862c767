// Latency of the account API over real HTTP on the embedded database: sign-in (argon2id-bound) and
// the authenticated GET /user/me, in msgpack and JSON, with 8 requests in flight.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API } from '../../src/contract';
import { startServer } from '../../src/server/main';
import { client, type Format } from '../integration/support/harness';
import { waitForStatus } from '../integration/support/upload';

const pct = (xs: number[], p: number) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function measure(n: number, concurrency: number, fn: () => Promise<void>) {
  const times: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        const s = performance.now();
        await fn();
        times.push(performance.now() - s);
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  return { p50: pct(times, 50), p95: pct(times, 95), rps: n / secs };
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-bench-'));
const server = await startServer({ PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', WEB_DIR: path.join(dataDir, 'none') });
const api = client(server.url);
const email = 'bench@example.com';
const reg = await api('POST', API.register, { body: { email, password: 'bench-password' } });
const token = reg.body.token!;
// Signing up indexes the demo library; let that finish so it does not compete with the measurement.
await server.database.db.updateTable('users').set({ is_verified: true }).execute();
const demo = (
  await api<Array<{ _id: string; isDemo: boolean; latestMediaIds: string[] }>>('GET', API.libraries, { token })
).body.data!.find((l) => l.isDemo)!;
for (const id of demo.latestMediaIds) await waitForStatus({ api } as never, token, demo._id, id, ['completed', 'errored'], 300_000);
const rows: string[] = [];
await measure(300, 8, async () => void (await api('GET', API.me, { token }))); // warm-up: JIT, connection, query plans
for (const format of ['msgpack', 'json'] as Format[]) {
  const me = await measure(2000, 8, async () => {
    const r = await api('GET', API.me, { token, format });
    if (r.status !== 200) throw new Error(`me ${r.status}`);
  });
  rows.push(
    `GET /user/me        ${format.padEnd(8)} p50 ${me.p50.toFixed(2).padStart(6)} ms  p95 ${me.p95.toFixed(2).padStart(6)} ms  ${me.rps.toFixed(0).padStart(5)} req/s`,
  );
  const login = await measure(60, 4, async () => {
    const r = await api('POST', API.login, { body: { email, password: 'bench-password' }, format });
    if (r.status !== 200) throw new Error(`login ${r.status}`);
  });
  rows.push(
    `POST /auth/email/login ${format.padEnd(5)} p50 ${login.p50.toFixed(2).padStart(6)} ms  p95 ${login.p95.toFixed(2).padStart(6)} ms  ${login.rps.toFixed(0).padStart(5)} req/s`,
  );
}
console.log(rows.join('\n'));
await server.close();
fs.rmSync(dataDir, { recursive: true, force: true });
