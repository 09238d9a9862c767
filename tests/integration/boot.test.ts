import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API, type HealthInfo, type User } from '../../src/contract';
import { startServer } from '../../src/server/main';
import { partialModelsDir, removeDir } from '../fixtures/modelsDir';
import { client, JWT_SECRET, uniqueEmail } from './support/harness';

const run = promisify(execFile);
const main = path.resolve('src/server/main.ts');

describe('boot', () => {
  it('stops on a bad setting with a message naming the variable', async () => {
    const err = await run(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, PORT: 'eighty' } }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect((err as { code: number }).code).toBe(2);
    expect((err as { stderr: string }).stderr).toContain('Invalid configuration: PORT');
  });

  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'keeps data across restarts and never lets two processes open one data directory',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-boot-'));
      const env = { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET, WEB_DIR: path.join(dataDir, 'none') };
      const first = await startServer(env);
      const email = uniqueEmail('persist');
      try {
        expect((await client(first.url)('POST', API.register, { body: { email, password: 'persist-password' } })).status).toBe(201);
        const second = await run(process.execPath, ['--import', 'tsx', main], { env: { ...process.env, ...env } }).catch(
          (e: { code: number; stderr: string }) => e,
        );
        expect((second as { code: number }).code).toBe(1);
        expect((second as { stderr: string }).stderr).toContain(`is in use by process ${process.pid}`);
      } finally {
        await first.close();
      }
      const again = await startServer(env);
      try {
        const r = await client(again.url)<User>('POST', API.login, { body: { email, password: 'persist-password' } });
        expect(r.status).toBe(200);
        expect(r.body.data!.email).toBe(email);
        // mail without SMTP_URL goes to the outbox folder with the link in it
        const mails = fs.readdirSync(path.join(dataDir, 'mail'));
        expect(mails).toHaveLength(1);
        expect(fs.readFileSync(path.join(dataDir, 'mail', mails[0]!), 'utf8')).toMatch(/\/confirm-email\?code=/);
      } finally {
        await again.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  );

  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'starts without ffmpeg, pocketsphinx and a model, and says on /health and in its banner which features are off and why',
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-bare-'));
      const modelsDir = partialModelsDir(['mobilenetv2-12-int8-embed.onnx', 'imagenet1k_labels.tsv']);
      // PATH holds node only: no ffmpeg, no pocketsphinx, as on a machine where they were never installed.
      const bin = path.join(dataDir, 'bin');
      fs.mkdirSync(bin);
      fs.symlinkSync(process.execPath, path.join(bin, 'node'));
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        env: {
          ...process.env,
          PATH: bin,
          PORT: '0',
          DATA_DIR: dataDir,
          MODELS_DIR: modelsDir,
          LOG_LEVEL: 'silent',
          JWT_SECRET,
          WEB_DIR: path.join(dataDir, 'none'),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        let out = '';
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on('data', (d: Buffer) => {
            out += d.toString();
            const m = /running at (http:\/\/\S+)[\s\S]*indexing: [\s\S]*\n\n/.exec(out);
            if (m) resolve(m[1]);
          });
          child.on('exit', (code) => reject(new Error(`server exited (${code}) before it was ready: ${out}`)));
        });
        expect(out).toMatch(/these features are off:\n\s+- Video indexing: ffmpeg is not installed on this server/);
        expect(out).toContain('- Transcript search (speech to text): pocketsphinx and pocketsphinx-en-us are not installed on this server');
        const r = await client(url)<HealthInfo>('GET', API.health);
        expect(r.status).toBe(200);
        const health = r.body.data!;
        expect(health.capabilities).toEqual(expect.arrayContaining(['classes', 'embedding']));
        expect(health.capabilities).not.toContain('media');
        expect(health.capabilities).not.toContain('speech');
        const off = Object.fromEntries(health.off.map((f) => [f.feature, f]));
        expect(off.media!.reason).toBe('ffmpeg is not installed on this server');
        expect(off.speech!.reason).toBe('pocketsphinx and pocketsphinx-en-us are not installed on this server');
        expect(off.objects!.reason).toBe('model files yolox_nano.onnx, coco80_labels.txt are not installed on this server');
        expect(off.clip!.optional).toBe(true);
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
        removeDir(modelsDir);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});
