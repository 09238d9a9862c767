import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { API, type User } from '../../src/contract';
import { startServer } from '../../src/server/main';
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
});
