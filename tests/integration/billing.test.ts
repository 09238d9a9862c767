import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  MSG_BILLING,
  type BillingInfo,
  type OneTimeProduct,
  type PurchaseAnswer,
  type SubscriptionProduct,
  type UsageHistoryEntry,
} from '../../src/contract';
import { startTestServer, type Format } from './support/harness';
import { defaultLibrary, makeVideo, uploadFile, verifiedUser, waitForStatus } from './support/upload';

let t: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  // A stand-in web app, so browser-style requests (Accept: text/html) meet the app's catch-all too.
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>the web app</title>');
  t = await startTestServer({ SIGNUP_BONUS_CREDITS: '20000', SIGNUP_BONUS_DAYS: '30', WEB_DIR: web });
});
afterAll(async () => {
  await t?.close();
});

const info = async (token: string, format: Format = 'msgpack') =>
  (await t.api<BillingInfo>('GET', API.billingInfo, { token, format })).body.data!;

describe.each<Format>(['msgpack', 'json'])('billing calls over %s', (format) => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await verifiedUser(t, `bill-${format}`));
  });

  it('starts on the Free Trial with the signup bonus', async () => {
    const i = await info(token, format);
    expect(i.creditsLeft).toBe(20_000);
    expect(i.subscription).toMatchObject({
      status: null,
      termEnd: null,
      product: { name: 'Free Trial', price: { unit_amount: 0, currency: 'usd', interval: 'month' } },
    });
    expect(i.creditNotes).toHaveLength(1);
    expect(i.creditNotes[0]).toMatchObject({
      origin: 'signup',
      expired: false,
      credits: { originalAmount: 20_000, currentAmount: 20_000 },
      invoiceName: MSG_BILLING.signupBonus,
    });
    const days = (new Date(i.creditNotes[0]!.expiresAt!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(i.limits.storageHours).toBe(2);
    expect(i.usage.storageHours).toBe(0);
  });

  it('lists the products, to visitors too', async () => {
    const subs = await t.api<SubscriptionProduct[]>('GET', API.subscriptionsAvailable, { format });
    expect(subs.status).toBe(200);
    expect(subs.body.data!.map((p) => p.id)).toEqual(['starter', 'pro', 'studio']);
    for (const p of subs.body.data!)
      expect(p).toMatchObject({
        price: { currency: 'usd', interval: 'month', interval_count: 1 },
        quota: { credits: expect.any(Number), storageHours: expect.any(Number) },
      });
    const one = await t.api<OneTimeProduct[]>('GET', API.oneTimeAvailable, { format });
    expect(one.body.data![0]).toMatchObject({ id: 'top-up', quota: { credits: 50_000, storageHours: 10 } });
  });

  it('sells a top-up that settles at once, with a numbered invoice page', async () => {
    const bad = await t.api('POST', API.oneTimePurchase, { token, format, body: { quantity: 0 } });
    expect(bad.status).toBe(400);
    expect((await t.api('POST', API.oneTimePurchase, { format, body: { quantity: 1 } })).status).toBe(401);
    const r = await t.api<PurchaseAnswer>('POST', API.oneTimePurchase, { token, format, body: { quantity: 2 } });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'paid', url: null });
    const i = await info(token, format);
    expect(i.creditsLeft).toBe(120_000);
    expect(i.limits.storageHours).toBe(22);
    const note = i.creditNotes.find((n) => n.origin === 'top-up')!;
    expect(note.invoiceNumber).toMatch(/^CS-\d+$/);
    expect(note.invoiceName).toBe('Top-up × 2');
    const { invoiceUrl } = (await t.api<{ invoiceUrl: string }>('GET', API.invoiceUrl(note.invoiceId!), { token, format })).body.data!;
    expect(invoiceUrl.startsWith(t.server.url)).toBe(true);
    const page = await fetch(invoiceUrl, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(note.invoiceNumber!);
    expect((await fetch(invoiceUrl.replace(/sig=.*/, 'sig=forged'))).status).toBe(403);
  });

  it('buys a plan, upgrades now, downgrades at the next cycle, and cancels to term end', async () => {
    expect((await t.api('POST', API.subscriptionPurchase, { token, format, body: { productId: 'nope' } })).status).toBe(404);
    expect((await t.api('POST', API.subscriptionChange, { token, format, body: { productId: 'pro' } })).body.error!.message).toBe(
      MSG_BILLING.noSubscription,
    );
    const buy = await t.api<PurchaseAnswer>('POST', API.subscriptionPurchase, { token, format, body: { productId: 'starter' } });
    expect(buy.body.data!.status).toBe('paid');
    let i = await info(token, format);
    expect(i.subscription).toMatchObject({ status: 'active', product: { id: 'starter' } });
    expect(i.creditsLeft).toBe(180_000);
    expect(i.limits.storageHours).toBe(45);
    const again = await t.api('POST', API.subscriptionPurchase, { token, format, body: { productId: 'starter' } });
    expect(again.status).toBe(409);

    const up = await t.api<PurchaseAnswer>('POST', API.subscriptionChange, { token, format, body: { productId: 'pro' } });
    expect(up.body.data!.status).toBe('paid');
    i = await info(token, format);
    expect(i.subscription.product.id).toBe('pro');
    expect(i.creditsLeft).toBe(430_000);
    expect(i.limits.storageHours).toBe(120);

    const down = await t.api<PurchaseAnswer>('POST', API.subscriptionChange, { token, format, body: { productId: 'starter' } });
    expect(down.body.data!.status).toBe('scheduled');
    i = await info(token, format);
    expect(i.subscription).toMatchObject({ status: 'active', product: { id: 'pro' }, pendingProduct: { id: 'starter' } });
    expect(i.creditsLeft).toBe(430_000);
    expect(i.limits.storageHours).toBe(120);

    const { url } = (await t.api<{ url: string }>('GET', API.billingPortal, { token, format })).body.data!;
    expect(url.startsWith(`${t.server.url}${API.localPortal}`)).toBe(true);
    // opened by a browser (Accept: text/html), not swallowed by the web app
    const portal = await fetch(url, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    const portalHtml = await portal.text();
    expect(portalHtml).toContain('Cancel subscription');
    expect(portalHtml).not.toContain('the web app');
    // the portal's form posts url-encoded
    const cancel = await fetch(url.replace(API.localPortal, API.localPortalCancel), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      body: '',
    });
    expect(cancel.status).toBe(303);
    i = await info(token, format);
    expect(i.subscription.status).toBeNull();
    expect(i.subscription.product.id).toBe('pro');
    expect(i.subscription.termEnd).not.toBeNull();
    expect(await (await fetch(url)).text()).toContain(MSG_BILLING.willNotRenew);
  });

  it('pages the usage history by 10 with olderThan', async () => {
    const first = (await t.api<UsageHistoryEntry[]>('GET', `${API.usageHistory}?limit=2`, { token, format })).body.data!;
    expect(first).toHaveLength(2);
    const next = (
      await t.api<UsageHistoryEntry[]>('GET', `${API.usageHistory}?limit=10&olderThan=${encodeURIComponent(first[1]!.updatedAt)}`, {
        token,
        format,
      })
    ).body.data!;
    expect(next.length).toBeGreaterThan(0);
    expect(next.every((e) => e.updatedAt < first[1]!.updatedAt)).toBe(true);
    expect((await t.api('GET', `${API.usageHistory}?olderThan=yesterday`, { token, format })).status).toBe(400);
  });
});

describe('charges on their way (issue 37, item 10)', () => {
  it('counts a media until its indexing has charged, so the app knows to follow the balance', async () => {
    const { token } = await verifiedUser(t, 'bill-pending');
    expect((await info(token)).pendingCharges).toBe(0);
    const lib = await defaultLibrary(t, token);
    const fin = await uploadFile(t, token, lib._id, lib.rootFolderId, 'pending.mp4', makeVideo(3));
    // Queued (indexing takes seconds): one charge on its way, not yet taken.
    const during = await info(token);
    expect(during.pendingCharges).toBe(1);
    expect(during.creditsLeft).toBe(20_000);
    await waitForStatus(t, token, lib._id, fin.body.data!._id, ['completed'], 120_000);
    const after = await info(token);
    expect(after.pendingCharges).toBe(0);
    expect(after.creditsLeft).toBeLessThan(20_000);
  });
});

describe('renewal', () => {
  it('renews at term end once, applying a waiting downgrade; a cancelled plan ends', async () => {
    const { token, userId } = await verifiedUser(t, 'renew');
    await t.api('POST', API.subscriptionPurchase, { token, body: { productId: 'pro' } });
    await t.api('POST', API.subscriptionChange, { token, body: { productId: 'starter' } });
    const before = await info(token);
    const past = new Date(Date.now() - 60_000);
    await t.server.database.db.updateTable('subscriptions').set({ term_end: past }).where('user_id', '=', userId).execute();
    const runs = await Promise.all([t.server.billing.renewDue(), t.server.billing.renewDue()]);
    await t.server.billing.renewDue();
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const after = await info(token);
    expect(after.creditsLeft - before.creditsLeft).toBe(60_000);
    expect(after.subscription).toMatchObject({ status: 'active', product: { id: 'starter' }, pendingProduct: null });
    expect(new Date(after.subscription.termEnd!).getTime()).toBeGreaterThan(Date.now());
    expect(after.limits.storageHours).toBe(25);

    const { url } = (await t.api<{ url: string }>('GET', API.billingPortal, { token })).body.data!;
    await fetch(url.replace(API.localPortal, API.localPortalCancel), { method: 'POST', redirect: 'manual' });
    await t.server.database.db
      .updateTable('subscriptions')
      .set({ term_end: new Date(Date.now() - 1000) })
      .where('user_id', '=', userId)
      .execute();
    await t.server.billing.renewDue();
    const ended = await info(token);
    expect(ended.subscription).toMatchObject({ status: null, termEnd: null, product: { name: 'Free Trial' } });
    expect(ended.creditsLeft).toBe(after.creditsLeft);
    expect(ended.limits.storageHours).toBe(2);
  });
});

describe('Stripe webhooks', () => {
  let s: Awaited<ReturnType<typeof startTestServer>>;
  const secret = 'whsec_test_secret';
  const stripe = new Stripe('sk_test_offline');
  beforeAll(async () => {
    s = await startTestServer({ STRIPE_SECRET_KEY: 'sk_test_offline', STRIPE_WEBHOOK_SECRET: secret, SIGNUP_BONUS_CREDITS: '0' });
  });
  afterAll(async () => {
    await s?.close();
  });

  const post = (payload: string, header: string) =>
    fetch(`${s.server.url}${API.stripeWebhook}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      body: payload,
    });

  it('applies a signed event exactly once and refuses a tampered one', async () => {
    const { token, userId } = await verifiedUser(s, 'stripe');
    const event = {
      id: 'evt_test_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_test_1',
          object: 'checkout.session',
          customer: 'cus_1',
          payment_intent: 'pi_1',
          subscription: null,
          metadata: { userId, productId: 'top-up', kind: 'one-time', quantity: '1' },
        },
      },
    };
    const payload = JSON.stringify(event);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
    const r = await post(payload, header);
    expect(r.status).toBe(200);
    expect((await r.json()).data).toEqual({ received: true, result: 'applied' });
    expect((await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!.creditsLeft).toBe(50_000);

    const replay = await post(payload, header);
    expect(replay.status).toBe(200);
    expect((await replay.json()).data.result).toBe('duplicate');
    expect((await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!.creditsLeft).toBe(50_000);

    const tampered = payload.replace('"quantity":"1"', '"quantity":"9"');
    const bad = await post(tampered, header);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/signature/i);
    const unsigned = await post(JSON.stringify({ ...event, id: 'evt_other' }), 't=1,v1=deadbeef');
    expect(unsigned.status).toBe(400);
    expect((await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!.creditsLeft).toBe(50_000);
  });

  it('starts a Stripe subscription from checkout and renews it from invoice.paid, once each', async () => {
    const { token, userId } = await verifiedUser(s, 'stripesub');
    const send = async (event: object) => {
      const payload = JSON.stringify(event);
      return post(payload, stripe.webhooks.generateTestHeaderString({ payload, secret }));
    };
    await send({
      id: 'evt_sub_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_sub_1',
          object: 'checkout.session',
          customer: 'cus_2',
          subscription: 'sub_123',
          metadata: { userId, productId: 'starter', kind: 'subscription', quantity: '1' },
        },
      },
    });
    let i = (await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!;
    expect(i.subscription).toMatchObject({ status: 'active', product: { id: 'starter' } });
    expect(i.creditsLeft).toBe(60_000);
    const renewal = {
      id: 'evt_inv_1',
      object: 'event',
      type: 'invoice.paid',
      data: { object: { id: 'in_1', object: 'invoice', billing_reason: 'subscription_cycle', subscription: 'sub_123' } },
    };
    expect((await (await send(renewal)).json()).data.result).toBe('applied');
    expect((await (await send(renewal)).json()).data.result).toBe('duplicate');
    i = (await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!;
    expect(i.creditsLeft).toBe(120_000);
    await send({
      id: 'evt_upd_1',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: { id: 'sub_123', object: 'subscription', cancel_at_period_end: true } },
    });
    i = (await s.api<BillingInfo>('GET', API.billingInfo, { token })).body.data!;
    expect(i.subscription.status).toBeNull();
  });
});
