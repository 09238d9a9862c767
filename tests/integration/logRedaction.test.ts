// Secrets and tokens never reach the log: the real server process at LOG_LEVEL=debug, its stdout and
// stderr captured, through a flow that handles every kind of secret (passwords, session JWTs, the
// emailed verification and reset codes, a library's preview token in `?token=`, a blob URL's
// signature, the configured secrets); none of them may appear, while the request lines do.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API, type PreviewTokenAnswer, type User } from '../../src/contract';
import { redactText, redactUrl } from '../../src/server/logging';
import { client, uniqueEmail } from './support/harness';
import { seedEmbeddedDatabase } from './support/pgTemplate';

const main = path.resolve('src/server/main.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-logs-'));
const secrets = {
  JWT_SECRET: 'log-test-jwt-secret-0123456789-abcdefghijklmnop',
  INTERCOM_SECRET: 'log-test-intercom-secret-5f2a9c',
  STRIPE_SECRET_KEY: 'sk_test_logtest51Hx0000000000000000',
  STRIPE_WEBHOOK_SECRET: 'whsec_logtest0000000000000000',
};
let output = '';
// The server here always runs on embedded PGlite (no DATABASE_URL), so the PostgreSQL pass of
// npm test would only repeat it: that pass runs the free-text checks alone.
const embedded = !process.env.TEST_DATABASE_URL;
if (embedded) await seedEmbeddedDatabase(dataDir);
const child = embedded
  ? spawn(process.execPath, ['--import', 'tsx', main], {
      env: {
        ...process.env,
        ...secrets,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'debug',
        WEB_DIR: path.join(dataDir, 'no-web'),
        INTERCOM_APP_ID: 'logtest',
      },
    })
  : null;
child?.stdout.on('data', (c: Buffer) => (output += c.toString()));
child?.stderr.on('data', (c: Buffer) => (output += c.toString()));
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function started(): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const url = /running at (http:\/\/\S+)/.exec(output)?.[1];
    if (url) return url.replace(/\/$/, '');
    if (!child || child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The newest outbox mail to `to` and the code of its link. */
function mailedCode(to: string): string {
  const dir = path.join(dataDir, 'mail');
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.includes(to))
    .sort();
  const text = fs.readFileSync(path.join(dir, files.at(-1)!), 'utf8');
  return /[?&]code=([^\s&]+)/.exec(text)![1]!;
}

describe('logs', () => {
  it('redacts query secrets, JWTs and bearer credentials in free text', () => {
    expect(redactUrl('/library/a/media/b/preview/seg1.ts?token=abc.def&x=1')).toBe(
      '/library/a/media/b/preview/seg1.ts?token=[redacted]&x=1',
    );
    expect(redactUrl('/blobs/upload/u/1?exp=99&sig=f00d')).toBe('/blobs/upload/u/1?exp=99&sig=[redacted]');
    expect(redactUrl('https://s3.example/k?X-Amz-Signature=aa&X-Amz-Credential=AKIA%2F')).toBe(
      'https://s3.example/k?X-Amz-Signature=[redacted]&X-Amz-Credential=[redacted]',
    );
    expect(redactUrl('https://user:hunter2@mirror.example/models')).toBe('https://user:[redacted]@mirror.example/models');
    expect(redactText('sign in: http://x/impersonate#token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln')).toBe(
      'sign in: http://x/impersonate#token=[redacted]',
    );
    expect(redactText('header Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln sent')).toBe('header Bearer [redacted] sent');
  });

  it.runIf(embedded)('keeps every secret of a sign-up, sign-in, reset and media flow out of the debug log', async () => {
    const url = await started();
    const api = client(url);
    const email = uniqueEmail('logged');
    const password = 'log-test-password-1';
    const newPassword = 'log-test-password-2';
    const seen: string[] = [password, newPassword, ...Object.values(secrets)];

    const reg = await api<User>('POST', API.register, { body: { email, password }, format: 'json' });
    expect(reg.status).toBe(201);
    seen.push(reg.body.token!);
    const verifyCode = mailedCode(email);
    seen.push(verifyCode);
    const verified = await api<User>('POST', API.verifyEmail, { body: { token: verifyCode } });
    expect(verified.status).toBe(200);
    const session = verified.body.token!;
    seen.push(session);
    const login = await api<User>('POST', API.login, { body: { email, password } });
    expect(login.status).toBe(200);
    seen.push(login.body.token!);
    expect((await api('GET', API.me, { token: session })).status).toBe(200);
    // A wrong password is logged nowhere either.
    expect((await api('POST', API.login, { body: { email, password: 'log-test-wrong-password' } })).status).toBe(401);
    seen.push('log-test-wrong-password');

    const libraries = await api<{ _id: string }[]>('GET', API.libraries, { token: session });
    const libraryId = libraries.body.data![0]!._id;
    const preview = await api<PreviewTokenAnswer>('GET', API.libraryPreviewToken(libraryId), { token: session });
    expect(preview.status).toBe(200);
    const previewToken = preview.body.data!.previewToken;
    seen.push(previewToken);
    // Media URLs carry the preview token in the query (the media is unknown: the answer does not matter).
    const mediaId = '00000000-0000-4000-8000-000000000000';
    await fetch(`${url}${API.mediaThumbnail(libraryId, mediaId)}?token=${encodeURIComponent(previewToken)}&t=1`);
    await fetch(`${url}${API.previewPlaylist}?token=${encodeURIComponent(previewToken)}&libraryId=${libraryId}&mediaId=${mediaId}`);
    await fetch(`${url}/blobs/upload/${mediaId}/1?exp=4102444800&sig=log-test-blob-signature-77`, { method: 'PUT', body: 'x' });
    seen.push('log-test-blob-signature-77');
    const chat = await api<{ intercomToken: string }>('POST', API.intercom, { token: session });
    expect(chat.status).toBe(200);
    seen.push(chat.body.data!.intercomToken);

    expect((await api('POST', API.resetRequest, { body: { email } })).status).toBe(200);
    const resetCode = mailedCode(email);
    seen.push(resetCode);
    expect((await api('POST', API.reset, { body: { token: resetCode, password: newPassword } })).status).toBe(200);

    // The request lines are there (so the log was read at the level that shows URLs), with their secrets taken out.
    const deadline = Date.now() + 10_000;
    while (!output.includes(API.reset) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(output).toContain('"msg":"request"');
    expect(output).toContain('token=[redacted]');
    expect(output).toContain('sig=[redacted]');
    expect(output).toMatch(/mail to .*Reset your/);
    for (const secret of seen) expect(output, `the log holds ${secret.slice(0, 12)}…`).not.toContain(secret);
    expect(output).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.eyJ/);
  });
});
