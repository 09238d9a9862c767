import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API, ingestCost, partCount, type BillingInfo, type Media, type UploadStartAnswer, type User } from '../../src/contract';
import { startServer, type RunningServer } from '../../src/server/main';
import { MODELS_DIR } from '../fixtures/modelsDir';
import { makeTestVideo } from '../fixtures/makeMedia';
import { client, codeFrom, JWT_SECRET, startMailbox, uniqueEmail } from './support/harness';
import { seedEmbeddedDatabase } from './support/pgTemplate';
import { fingerprintOf } from './support/upload';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-crash-'));
let restarted: RunningServer | null = null;
afterAll(async () => {
  await restarted?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

// Embedded mode only: with PostgreSQL, orphaned jobs come back through pg-boss expiry instead.
describe.skipIf(!!process.env.TEST_DATABASE_URL)('a crash during ingest', () => {
  it('resumes after a restart, completes, and charges once', async () => {
    await seedEmbeddedDatabase(dataDir);
    const mailbox = await startMailbox();
    const env = {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: mailbox.url,
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      WEB_DIR: path.join(dataDir, 'none'),
      MODELS_DIR,
      SIGNUP_BONUS_CREDITS: '50000',
    };
    const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/server/main.ts')], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const bridge = path.join(dataDir, 'server.json');
    const deadline = Date.now() + 60_000;
    while (!fs.existsSync(bridge)) {
      if (Date.now() > deadline) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const url = (JSON.parse(fs.readFileSync(bridge, 'utf8')) as { url: string }).url;
    const api = client(url);
    const email = uniqueEmail('crash');
    await api<User>('POST', API.register, { body: { email, password: 'crash-password' } });
    const mail = await mailbox.next(email, /Confirm your email/);
    const token = (await api<User>('POST', API.verifyEmail, { body: { token: codeFrom(mail.links[0]!) } })).body.token!;
    const libs = await api<Array<{ _id: string; rootFolderId: string; isDefault: boolean }>>('GET', API.libraries, { token });
    const lib = libs.body.data!.find((l) => l.isDefault)!;
    const before = (await api<BillingInfo>('GET', API.billingInfo, { token })).body.data!.creditsLeft;

    const video = await makeTestVideo(dataDir);
    const bytes = fs.readFileSync(video.path);
    const start = (
      await api<UploadStartAnswer>('POST', API.uploadStart(lib._id, lib.rootFolderId), {
        token,
        body: {
          filename: 'crash.mp4',
          size: bytes.length,
          parts: partCount(bytes.length),
          uniqueId: fingerprintOf(bytes),
          deduplicationPolicy: { onConflict: 'error' },
        },
      })
    ).body.data!;
    await fetch(start.partUrls[0]!, { method: 'PUT', body: bytes });
    await api('POST', API.uploadFinish(lib._id, start.media._id), { token, body: { opaqueData: start.opaqueData } });

    // Kill the server (and its in-process worker) in the middle of indexing.
    let seen: Media | undefined;
    for (;;) {
      seen = (await api<Media>('GET', API.media(lib._id, start.media._id), { token })).body.data!;
      if (seen.status === 'processing' && seen.progress >= 0.15) break;
      if (seen.status === 'completed') throw new Error('ingest finished before the crash could happen');
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    await mailbox.close();

    restarted = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      WEB_DIR: path.join(dataDir, 'none'),
      MODELS_DIR,
      SIGNUP_BONUS_CREDITS: '50000',
    });
    const api2 = client(restarted.url);
    let done: Media;
    for (const until = Date.now() + 180_000; ;) {
      done = (await api2<Media>('GET', API.media(lib._id, start.media._id), { token })).body.data!;
      if (['completed', 'errored', 'invalid'].includes(done.status)) break;
      if (Date.now() > until) throw new Error(`stuck in ${done.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(done.status, done.error?.message).toBe('completed');
    const after = (await api2<BillingInfo>('GET', API.billingInfo, { token })).body.data!.creditsLeft;
    expect(before - after).toBe(ingestCost(done.metadata.video.duration));
    const charges = await restarted.database.db
      .selectFrom('credit_entries')
      .selectAll()
      .where('idempotency_key', '=', `ingest:${start.media._id}`)
      .execute();
    expect(charges).toHaveLength(1);
    const hits = await api2<{ results: Array<{ mediaId: string }> }>('POST', API.searchVisual(lib._id), { token, body: { text: 'dog' } });
    expect(hits.body.data!.results.some((m) => m.mediaId === start.media._id)).toBe(true);
  });
});
