import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, MSG, MSGPACK, type HealthInfo, type ResetRequestAnswer, type User } from '../../src/contract';
import { codeFrom, JWT_SECRET, startTestServer, uniqueEmail, type Format } from './support/harness';

let t: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t?.close();
});

const signWith = (claims: Record<string, unknown>, sub: string, exp: number) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(JWT_SECRET));

describe.each<Format>(['msgpack', 'json'])('accounts over %s', (format) => {
  const email = uniqueEmail(`user-${format}`);
  let password = 'first-password-1';
  let token = '';
  let userId = '';

  it('answers in the format asked for', async () => {
    const r = await t.api('GET', API.health, { format });
    expect(r.status).toBe(200);
    expect(r.contentType.startsWith(format === 'msgpack' ? MSGPACK : 'application/json')).toBe(true);
    const health = (r.body as { data: HealthInfo }).data;
    expect(health.ok).toBe(true);
    // Everything the indexer needs is on this machine: only the optional CLIP pair is off.
    expect(health.capabilities).toEqual(expect.arrayContaining(['media', 'objects', 'classes', 'embedding', 'text', 'speech']));
    expect(health.off.filter((f) => !f.optional)).toEqual([]);
  });

  it('registers an unverified user, signs them in and mails a verification link', async () => {
    const before = t.mailbox.count();
    const r = await t.api<User>('POST', API.register, { format, body: { email: email.toUpperCase(), password } });
    expect(r.status).toBe(201);
    expect(r.body.data).toMatchObject({ email, isVerified: false });
    expect(r.body.token).toBeTruthy();
    token = r.body.token!;
    userId = r.body.data!._id;
    const claims = decodeJwt(token);
    expect(claims.sub).toBe(userId);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    const mail = await t.mailbox.next(email, /Confirm your email/, before);
    expect(mail.links.some((l) => l.startsWith(`${t.server.url}/confirm-email?code=`))).toBe(true);
  });

  it('refuses a second account for the same email with 409', async () => {
    const r = await t.api('POST', API.register, { format, body: { email, password: 'another-password' } });
    expect(r.status).toBe(409);
    expect(r.body.error).toEqual({ code: 'email_exists', message: MSG.emailExists });
    expect(r.body.data).toBeNull();
  });

  it('refuses a malformed email and a short password', async () => {
    const bad = await t.api('POST', API.register, { format, body: { email: 'not-an-email', password: 'long-enough-1' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error!.message).toContain(MSG.serverInvalidEmailMarker);
    const short = await t.api('POST', API.register, { format, body: { email: uniqueEmail('short'), password: 'short' } });
    expect(short.status).toBe(400);
    expect(short.body.error!.code).toBe('validation_failed');
  });

  it('refuses a verification resend within 60 s', async () => {
    const before = t.mailbox.count();
    const r = await t.api('POST', API.resendVerification, { format, body: { email } });
    expect(r.status).toBe(429);
    expect(r.body.error!.code).toBe('rate_limited');
    expect(r.body.error!.retryAfterSeconds).toBeGreaterThan(50);
    expect(r.body.error!.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(t.mailbox.count()).toBe(before);
  });

  it('resends after the wait and only the newest link works', async () => {
    const first = (await t.mailbox.next(email, /Confirm your email/)).links[0]!;
    await t.server.database.db
      .updateTable('users')
      .set({ last_verification_sent_at: new Date(Date.now() - 61_000) })
      .where('id', '=', userId)
      .execute();
    const before = t.mailbox.count();
    const r = await t.api<ResetRequestAnswer>('POST', API.resendVerification, { format, body: { email } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ retryAfterSeconds: 60 });
    const second = (await t.mailbox.next(email, /Confirm your email/, before)).links[0]!;
    expect(second).not.toBe(first);
    const old = await t.api('POST', API.verifyEmail, { format, body: { token: codeFrom(first) } });
    expect(old.status).toBe(400);
    expect(old.body.error).toEqual({ code: 'code_invalid', message: MSG.codeInvalid });

    const ok = await t.api<User>('POST', API.verifyEmail, { format, body: { token: codeFrom(second) } });
    expect(ok.status).toBe(200);
    expect(ok.body.data!.isVerified).toBe(true);
    expect(ok.body.token).toBeTruthy();
    token = ok.body.token!;

    const reused = await t.api('POST', API.verifyEmail, { format, body: { token: codeFrom(second) } });
    expect(reused.status).toBe(400);
    expect(reused.body.error!.code).toBe('code_invalid');
  });

  it('signs in, and refuses a wrong password', async () => {
    const wrong = await t.api('POST', API.login, { format, body: { email, password: 'wrong-password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toEqual({ code: 'unauthorized', message: MSG.wrongCredentials });
    const empty = await t.api('POST', API.login, { format, body: { email: '', password: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error!.message).toBe(MSG.emailPasswordRequired);
    const r = await t.api<User>('POST', API.login, { format, body: { email, password } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ _id: userId, email, isVerified: true });
    token = r.body.token!;
    const me = await t.api<User>('GET', API.me, { format, token });
    expect(me.body.data!.email).toBe(email);
  });

  it('refuses a missing, tampered or expired token', async () => {
    const none = await t.api('GET', API.me, { format });
    expect(none.status).toBe(401);
    expect(none.body.error!.code).toBe('unauthorized');
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...payload, sub: '00000000-0000-0000-0000-000000000000' })).toString('base64url')}.${s}`;
    const tampered = await t.api('GET', API.me, { format, token: forged });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error!.code).toBe('token_invalid');
    const expired = await signWith({ email, ver: payload.ver }, userId, Math.floor(Date.now() / 1000) - 10);
    const r = await t.api('GET', API.me, { format, token: expired });
    expect(r.status).toBe(401);
    expect(r.body.error!.code).toBe('token_expired');
  });

  it('refreshes a normal session but never an impersonation one', async () => {
    const r = await t.api<User>('POST', API.refreshToken, { format, token });
    expect(r.status).toBe(200);
    expect(r.body.token).toBeTruthy();
    const payload = decodeJwt(token);
    const imp = await signWith(
      { email, ver: payload.ver, impersonatedBy: 'support@example.com' },
      userId,
      Math.floor(Date.now() / 1000) + 600,
    );
    expect((await t.api('GET', API.me, { format, token: imp })).status).toBe(200);
    const refused = await t.api('POST', API.refreshToken, { format, token: imp });
    expect(refused.status).toBe(403);
    expect(refused.body.error!.code).toBe('impersonation_refresh_forbidden');
    expect(refused.body.token).toBeUndefined();
  });

  it('changes the password; the old password and old sessions stop working', async () => {
    const wrong = await t.api('POST', API.changePassword, {
      format,
      token,
      body: { oldPassword: 'nope-nope-nope', newPassword: 'second-password-2' },
    });
    expect(wrong.status).toBe(403);
    const missing = await t.api('POST', API.changePassword, { format, token, body: { oldPassword: '', newPassword: 'x' } });
    expect(missing.body.error!.message).toBe(MSG.currentPasswordRequired);
    const r = await t.api<User>('POST', API.changePassword, {
      format,
      token,
      body: { oldPassword: password, newPassword: 'second-password-2' },
    });
    expect(r.status).toBe(200);
    const oldToken = token;
    token = r.body.token!;
    password = 'second-password-2';
    expect((await t.api('GET', API.me, { format, token: oldToken })).status).toBe(401);
    expect((await t.api('GET', API.me, { format, token })).status).toBe(200);
    expect((await t.api('POST', API.login, { format, body: { email, password: 'first-password-1' } })).status).toBe(401);
    expect((await t.api('POST', API.login, { format, body: { email, password } })).status).toBe(200);
  });

  it('resets a forgotten password through the mailed link, once', async () => {
    const before = t.mailbox.count();
    const r = await t.api<ResetRequestAnswer>('POST', API.resetRequest, { format, body: { email } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ retryAfterSeconds: 60 });
    const again = await t.api('POST', API.resetRequest, { format, body: { email } });
    expect(again.status).toBe(429);
    expect(again.body.error!.message).toBe(MSG.resetLimitServer);
    const mail = await t.mailbox.next(email, /Reset your/, before);
    const link = mail.links.find((l) => l.includes('/reset-password?code='))!;
    expect(link.startsWith(`${t.server.url}/reset-password?code=`)).toBe(true);
    // The check says the link works and leaves it working (asked twice).
    for (let i = 0; i < 2; i++) {
      const check = await t.api('POST', API.resetCheck, { format, body: { token: codeFrom(link) } });
      expect(check.status).toBe(200);
      expect(check.body.data).toEqual({ ok: true });
    }
    const short = await t.api('POST', API.reset, { format, body: { token: codeFrom(link), password: 'short' } });
    expect(short.status).toBe(400);
    const ok = await t.api('POST', API.reset, { format, body: { token: codeFrom(link), password: 'third-password-3' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ ok: true });
    const reused = await t.api('POST', API.reset, { format, body: { token: codeFrom(link), password: 'fourth-password-4' } });
    expect(reused.status).toBe(400);
    expect(reused.body.error!.code).toBe('code_invalid');
    // Once used, the check says so before anything is filled in; an unknown code likewise.
    const usedCheck = await t.api('POST', API.resetCheck, { format, body: { token: codeFrom(link) } });
    expect(usedCheck.status).toBe(400);
    expect(usedCheck.body.error).toEqual({ code: 'code_invalid', message: MSG.codeInvalid });
    const unknownCheck = await t.api('POST', API.resetCheck, { format, body: { token: 'y'.repeat(40) } });
    expect(unknownCheck.body.error).toEqual({ code: 'code_invalid', message: MSG.codeInvalid });
    expect((await t.api('GET', API.me, { format, token })).status).toBe(401);
    expect((await t.api('POST', API.login, { format, body: { email, password: 'third-password-3' } })).status).toBe(200);
    password = 'third-password-3';
  });

  it('answers a reset request for an unknown email exactly like a known one, limit included', async () => {
    const stranger = uniqueEmail('nobody');
    const before = t.mailbox.count();
    const r = await t.api('POST', API.resetRequest, { format, body: { email: stranger } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ retryAfterSeconds: 60 });
    const again = await t.api('POST', API.resetRequest, { format, body: { email: stranger } });
    expect(again.status).toBe(429);
    expect(again.body.error!.message).toBe(MSG.resetLimitServer);
    await new Promise((r2) => setTimeout(r2, 300));
    expect(t.mailbox.mails.slice(before).some((m) => m.to === stranger)).toBe(false);
  });

  it('refuses an expired reset code', async () => {
    await t.server.database.db.deleteFrom('rate_events').where('key', '=', `reset:${email}`).execute();
    const before = t.mailbox.count();
    await t.api('POST', API.resetRequest, { format, body: { email } });
    const link = (await t.mailbox.next(email, /Reset your/, before)).links[0]!;
    await t.server.database.db
      .updateTable('one_time_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .execute();
    const check = await t.api('POST', API.resetCheck, { format, body: { token: codeFrom(link) } });
    expect(check.status).toBe(400);
    expect(check.body.error).toEqual({ code: 'code_invalid', message: MSG.codeExpired });
    const r = await t.api('POST', API.reset, { format, body: { token: codeFrom(link), password: 'fifth-password-5' } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ code: 'code_invalid', message: MSG.codeExpired });
  });

  it('merges UI preferences with what is stored and refuses bad ones', async () => {
    const login = await t.api<User>('POST', API.login, { format, body: { email, password } });
    token = login.body.token!;
    expect(login.body.data!.settings.libraryViewMode).toBe('list');
    const a = await t.api<User>('POST', API.meSettings, { format, token, body: { libraryViewMode: 'grid' } });
    expect(a.status).toBe(200);
    const b = await t.api<User>('POST', API.meSettings, { format, token, body: { autoplayVideos: true } });
    expect(b.body.data!.settings).toMatchObject({ libraryViewMode: 'grid', autoplayVideos: true, enableSounds: true });
    const bad = await t.api('POST', API.meSettings, { format, token, body: { libraryViewMode: 'mosaic' } });
    expect(bad.status).toBe(400);
    const unknown = await t.api('POST', API.meSettings, { format, token, body: { theme: 'dark' } });
    expect(unknown.status).toBe(400);
    expect((await t.api<User>('GET', API.me, { format, token })).body.data!.settings.libraryViewMode).toBe('grid');
  });

  it('keeps the libraries last searched, browsed or uploaded into with the settings (issue 37, item 8)', async () => {
    const ids = ['8f14e45f-ceea-467f-a0e6-1b2a3c4d5e6f', '1c9ac015-9c2e-4a1b-8d3e-5f6a7b8c9d0e'];
    const a = await t.api<User>('POST', API.meSettings, { format, token, body: { lastLibraryIds: ids } });
    expect(a.status).toBe(200);
    expect(a.body.data!.settings).toMatchObject({ lastLibraryIds: ids, libraryViewMode: 'grid' });
    // A preference sent alone (the app's preferences sync leaves this field to its own writer) keeps it.
    await t.api<User>('POST', API.meSettings, { format, token, body: { enableSounds: false } });
    expect((await t.api<User>('GET', API.me, { format, token })).body.data!.settings).toMatchObject({
      lastLibraryIds: ids,
      enableSounds: false,
    });
    for (const bad of ['one', [1], Array.from({ length: 33 }, () => ids[0]), ['x'.repeat(65)]]) {
      const r = await t.api('POST', API.meSettings, { format, token, body: { lastLibraryIds: bad } });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.error?.message).toMatch(/^lastLibraryIds must be a list of at most 32 library ids/);
    }
  });

  it('says clearly that the support chat is not configured', async () => {
    const r = await t.api('POST', API.intercom, { format, token });
    expect(r.status).toBe(503);
    expect(r.body.error).toEqual({ code: 'not_configured', message: MSG.intercomNotConfigured });
  });

  it('stores feedback from the error dialog', async () => {
    const r = await t.api('POST', API.feedback, {
      format,
      token,
      body: { name: 'Ann', email, comments: 'It broke', error: 'TypeError: x is undefined' },
    });
    expect(r.status).toBe(201);
    const rows = await t.server.database.db
      .selectFrom('feedback')
      .selectAll()
      .where('comments', '=', 'It broke')
      .where('email', '=', email)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.user_id).toBe(userId);
  });
});

describe('plumbing', () => {
  it('answers 415 for a missing or unsupported content type', async () => {
    const missing = await fetch(t.server.url + API.login, { method: 'POST', body: new Uint8Array([1, 2, 3]) });
    expect(missing.status).toBe(415);
    const text = await fetch(t.server.url + API.login, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    expect(text.status).toBe(415);
    expect((await text.json()).error.code).toBe('unsupported_media_type');
  });

  it('negotiates the answer format by Accept', async () => {
    const r = await fetch(t.server.url + API.login, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: MSGPACK },
      body: JSON.stringify({ email: 'x@example.com', password: 'whatever-1' }),
    });
    expect(r.headers.get('content-type')).toContain(MSGPACK);
  });

  it('rate limits sign-in attempts per account', async () => {
    const email = uniqueEmail('brute');
    await t.api('POST', API.register, { body: { email, password: 'right-password-1' } });
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await t.api('POST', API.login, { body: { email, password: `wrong-${i}-xxxx` } })).status);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
    const right = await t.api('POST', API.login, { body: { email, password: 'right-password-1' } });
    expect(right.status).toBe(429);
  });

  it('gives support staff a sign-in link through the admin command, never refreshable', async () => {
    const email = uniqueEmail('imp');
    await t.api('POST', API.register, { body: { email, password: 'imp-password-1' } });
    const env = {
      ...process.env,
      DATA_DIR: t.dataDir,
      JWT_SECRET,
      APP_URL: t.server.url,
      ...(t.server.config.databaseUrl ? { DATABASE_URL: t.server.config.databaseUrl } : {}),
    };
    // Async: the server under test runs in this process and must keep answering the command.
    const r = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.resolve('src/server/cli/admin.ts'), 'impersonate', email, '--by', 'support@example.com', '--minutes', '30'],
      { env },
    );
    expect(r.stderr).toBe('');
    const link = /Sign-in link: (\S+)/.exec(r.stdout)![1]!;
    expect(link.startsWith(`${t.server.url}/impersonate#token=`)).toBe(true);
    const token = decodeURIComponent(link.split('#token=')[1]!);
    const claims = decodeJwt(token);
    expect(claims.impersonatedBy).toBe('support@example.com');
    expect(claims.exp! - Date.now() / 1000).toBeGreaterThan(29 * 60);
    expect(claims.exp! - Date.now() / 1000).toBeLessThanOrEqual(30 * 60);
    const me = await t.api<User>('GET', API.me, { token });
    expect(me.body.data!.email).toBe(email);
    expect((await t.api('POST', API.refreshToken, { token })).status).toBe(403);
  });
});
