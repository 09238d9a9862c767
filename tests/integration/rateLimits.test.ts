// Rate limits of the unauthenticated account calls, per address (the client's IP; X-Forwarded-For is
// believed only with TRUST_PROXY) and per account (the email asked about), with the spec's message
// where it has one and a Retry-After that says when the call is accepted again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  API,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  MAIL_REQUEST_WINDOW_SECONDS,
  MAIL_REQUESTS_MAX_PER_ACCOUNT,
  MAIL_REQUESTS_MAX_PER_ADDRESS,
  MSG,
  REGISTER_MAX_PER_ADDRESS,
  REGISTER_MAX_PER_EMAIL,
  REGISTER_WINDOW_SECONDS,
} from '../../src/contract';
import { startTestServer, uniqueEmail } from './support/harness';

let t: Awaited<ReturnType<typeof startTestServer>>;
let direct: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  [t, direct] = await Promise.all([startTestServer({ TRUST_PROXY: 'true' }), startTestServer()]);
});
afterAll(async () => {
  await Promise.all([t?.close(), direct?.close()]);
});

let nextAddress = 1;
/** A client address of its own (documentation range 198.51.100.0/24, then 203.0.113.0/24). */
const newAddress = () => {
  const n = nextAddress++;
  return n < 255 ? `198.51.100.${n}` : `203.0.113.${n - 254}`;
};

const post = (path: string, body: object, address: string, server = t) =>
  server.api('POST', path, { body, format: 'json', headers: { 'x-forwarded-for': address } });

/** Puts every rate event and the last verification mail of `email` two minutes further back, as if the minute's wait had passed. */
async function letAMinutePass(email: string) {
  const db = t.server.database.db;
  await db
    .updateTable('rate_events')
    .set({ at: sql`at - interval '2 minutes'` })
    .where('key', 'like', `%${email}`)
    .execute();
  await db
    .updateTable('users')
    .set({ last_verification_sent_at: sql`last_verification_sent_at - interval '2 minutes'` })
    .where('email', '=', email)
    .execute();
}

describe('rate limits', () => {
  it(`registration: ${REGISTER_MAX_PER_ADDRESS} an hour per address`, async () => {
    const address = newAddress();
    for (let i = 0; i < REGISTER_MAX_PER_ADDRESS; i++) {
      const r = await post(API.register, { email: uniqueEmail(`signup${i}`), password: 'signup-password-1' }, address);
      expect(r.status, `registration ${i + 1}`).toBe(201);
    }
    const refused = await post(API.register, { email: uniqueEmail('one-more'), password: 'signup-password-1' }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: MSG.tooManySignups });
    expect(refused.body.error!.retryAfterSeconds).toBeGreaterThan(REGISTER_WINDOW_SECONDS - 120);
    expect(refused.body.error!.retryAfterSeconds).toBeLessThanOrEqual(REGISTER_WINDOW_SECONDS);
    // Another address is not held back by this one.
    expect((await post(API.register, { email: uniqueEmail('elsewhere'), password: 'signup-password-1' }, newAddress())).status).toBe(201);
  });

  it(`registration: ${REGISTER_MAX_PER_EMAIL} attempts an hour per email, from any address`, async () => {
    const email = uniqueEmail('taken');
    const statuses: number[] = [];
    for (let i = 0; i < REGISTER_MAX_PER_EMAIL; i++)
      statuses.push((await post(API.register, { email, password: 'taken-password-1' }, newAddress())).status);
    expect(statuses).toEqual([201, ...Array<number>(REGISTER_MAX_PER_EMAIL - 1).fill(409)]);
    const refused = await post(API.register, { email, password: 'taken-password-1' }, newAddress());
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toBe(MSG.tooManySignups);
  });

  it(`sign-in: ${LOGIN_MAX_FAILURES_PER_ADDRESS} failures per address, then even a right password waits`, async () => {
    const address = newAddress();
    const email = uniqueEmail('victim');
    await post(API.register, { email, password: 'victim-password-1' }, newAddress());
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      const r = await post(API.login, { email: uniqueEmail(`guess${i}`), password: 'guessed-password' }, address);
      expect(r.status).toBe(401);
    }
    const refused = await post(API.login, { email, password: 'victim-password-1' }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toBe(MSG.tooManyLogins);
    expect((await post(API.login, { email, password: 'victim-password-1' }, newAddress())).status).toBe(200);
  });

  it(`password reset: ${MAIL_REQUESTS_MAX_PER_ADDRESS} requests an hour per address, with the spec's message`, async () => {
    const address = newAddress();
    for (let i = 0; i < MAIL_REQUESTS_MAX_PER_ADDRESS; i++)
      expect((await post(API.resetRequest, { email: uniqueEmail(`reset${i}`) }, address)).status).toBe(200);
    const refused = await post(API.resetRequest, { email: uniqueEmail('reset-more') }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'rate_limited', message: MSG.resetLimitServer });
    expect(refused.body.error!.retryAfterSeconds).toBeGreaterThan(MAIL_REQUEST_WINDOW_SECONDS - 120);
    expect((await post(API.resetRequest, { email: uniqueEmail('reset-elsewhere') }, newAddress())).status).toBe(200);
  });

  it(`password reset: one a minute and ${MAIL_REQUESTS_MAX_PER_ACCOUNT} an hour per account, whatever the address`, async () => {
    const email = uniqueEmail('inbox');
    await post(API.register, { email, password: 'inbox-password-1' }, newAddress());
    const before = t.mailbox.count();
    for (let i = 0; i < MAIL_REQUESTS_MAX_PER_ACCOUNT; i++) {
      expect((await post(API.resetRequest, { email }, newAddress())).status, `request ${i + 1}`).toBe(200);
      // Within the minute the next one is refused.
      expect((await post(API.resetRequest, { email }, newAddress())).status).toBe(429);
      await letAMinutePass(email);
    }
    const refused = await post(API.resetRequest, { email }, newAddress());
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toBe(MSG.resetLimitServer);
    // The oldest request was about ten minutes ago: it leaves the hour in about fifty.
    expect(refused.body.error!.retryAfterSeconds).toBeGreaterThan(MAIL_REQUEST_WINDOW_SECONDS - 11 * 60);
    expect(refused.body.error!.retryAfterSeconds).toBeLessThan(MAIL_REQUEST_WINDOW_SECONDS - 9 * 60);
    // Each accepted request sent its mail before answering; the refused ones sent none.
    expect(t.mailbox.mails.slice(before).filter((m) => m.to === email)).toHaveLength(MAIL_REQUESTS_MAX_PER_ACCOUNT);
  });

  it(`verification resend: ${MAIL_REQUESTS_MAX_PER_ADDRESS} requests an hour per address`, async () => {
    const address = newAddress();
    for (let i = 0; i < MAIL_REQUESTS_MAX_PER_ADDRESS; i++)
      expect((await post(API.resendVerification, { email: uniqueEmail(`resend${i}`) }, address)).status).toBe(200);
    const refused = await post(API.resendVerification, { email: uniqueEmail('resend-more') }, address);
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toBe(MSG.resendTooSoon);
  });

  it(`verification resend: one a minute and ${MAIL_REQUESTS_MAX_PER_ACCOUNT} an hour per account`, async () => {
    const email = uniqueEmail('unverified');
    await post(API.register, { email, password: 'unverified-password-1' }, newAddress());
    await letAMinutePass(email);
    for (let i = 0; i < MAIL_REQUESTS_MAX_PER_ACCOUNT; i++) {
      expect((await post(API.resendVerification, { email }, newAddress())).status, `resend ${i + 1}`).toBe(200);
      expect((await post(API.resendVerification, { email }, newAddress())).status).toBe(429);
      await letAMinutePass(email);
    }
    const refused = await post(API.resendVerification, { email }, newAddress());
    expect(refused.status).toBe(429);
    expect(refused.body.error!.message).toBe(MSG.resendTooSoon);
    expect(refused.body.error!.retryAfterSeconds).toBeGreaterThan(MAIL_REQUEST_WINDOW_SECONDS - 11 * 60);
  });

  it('without TRUST_PROXY an address is the connection’s: a forged X-Forwarded-For changes nothing', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i++) {
      const r = await post(API.login, { email: uniqueEmail(`forged${i}`), password: 'guessed-password' }, newAddress(), direct);
      expect(r.status).toBe(401);
    }
    const refused = await post(API.login, { email: uniqueEmail('forged'), password: 'guessed-password' }, newAddress(), direct);
    expect(refused.status).toBe(429);
  });
});
