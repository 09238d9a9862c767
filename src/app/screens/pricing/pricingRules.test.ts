import { describe, expect, it } from 'vitest';
import { FREE_TRIAL_PRODUCT_ID, MSG_BILLING, TOP_UP_MAX_QUANTITY, type BillingInfo, type SubscriptionProduct } from '../../../contract';
import { subscriptionProduct } from '../../../../tests/fixtures/billing';
import { billingInterval, clampQuantity, creditsKept, planAction, priceWithInterval, storageAfterChange } from './pricingRules';

const free = subscriptionProduct(FREE_TRIAL_PRODUCT_ID, 0);
const starter = subscriptionProduct('starter', 1200);
const pro = subscriptionProduct('pro', 3900);

const on = (current: SubscriptionProduct, extra: Partial<BillingInfo['subscription']> = {}): BillingInfo => ({
  creditsLeft: 0,
  creditNotes: [],
  pendingCharges: 0,
  limits: { storageHours: 2 },
  usage: { storageHours: 0 },
  subscription: {
    status: current === free ? null : 'active',
    termEnd: current === free ? null : '2026-02-01T00:00:00Z',
    product: current,
    pendingProduct: null,
    ...extra,
  },
});

describe('planAction', () => {
  it('sends visitors to register', () => {
    expect(planAction(pro, false, null)).toEqual({ kind: 'register', label: MSG_BILLING.createAccount });
  });

  it('waits for the billing info of a signed-in user', () => {
    expect(planAction(pro, true, null).kind).toBe('loading');
  });

  it('lets a user on the Free Trial buy any plan directly', () => {
    expect(planAction(starter, true, on(free))).toEqual({ kind: 'buy', label: MSG_BILLING.upgrade });
  });

  it('asks a subscriber to confirm an upgrade or a downgrade, and keeps the current plan', () => {
    expect(planAction(pro, true, on(starter))).toEqual({ kind: 'change', label: MSG_BILLING.upgrade, direction: 'upgrade' });
    expect(planAction(starter, true, on(pro))).toEqual({ kind: 'change', label: MSG_BILLING.downgrade, direction: 'downgrade' });
    expect(planAction(pro, true, on(pro))).toEqual({ kind: 'current', label: MSG_BILLING.youHaveThis });
  });

  it('does not offer a downgrade that already waits for the next cycle', () => {
    expect(planAction(starter, true, on(pro, { pendingProduct: starter }))).toEqual({ kind: 'scheduled', label: MSG_BILLING.downgrade });
  });

  it('treats a cancelled plan that still runs as a subscription', () => {
    expect(planAction(pro, true, on(starter, { status: null })).kind).toBe('change');
  });
});

describe('clampQuantity', () => {
  it('keeps the quantity whole and between 1 and the maximum', () => {
    expect(clampQuantity(3)).toBe(3);
    expect(clampQuantity(2.7)).toBe(2);
    expect(clampQuantity(0)).toBe(1);
    expect(clampQuantity(-4)).toBe(1);
    expect(clampQuantity(Number.NaN)).toBe(1);
    expect(clampQuantity(TOP_UP_MAX_QUANTITY + 1)).toBe(TOP_UP_MAX_QUANTITY);
  });
});

describe('storageAfterChange', () => {
  it('is the new plan’s hours plus what top-ups added', () => {
    const big = { ...pro, quota: { ...pro.quota, storageHours: 100 } };
    const small = { ...starter, quota: { ...starter.quota, storageHours: 25 } };
    const info = on(big);
    info.limits.storageHours = 110; // 100 from the plan, 10 from a top-up
    expect(storageAfterChange(info, small)).toBe(35);
    info.limits.storageHours = 100;
    expect(storageAfterChange(info, small)).toBe(25);
  });
});

describe('priceWithInterval', () => {
  it('says the price and how often it is charged', () => {
    expect(priceWithInterval(pro.price)).toBe('$39 per month');
    expect(priceWithInterval({ ...pro.price, interval: 'year', unit_amount: 39000 })).toBe('$390 per year');
    expect(priceWithInterval({ ...pro.price, interval_count: 3 })).toBe('$39 every 3 months');
    expect(billingInterval({ interval: null, interval_count: 0 })).toBe('month');
  });
});

describe('creditsKept', () => {
  const note = (origin: BillingInfo['creditNotes'][number]['origin'], currentAmount: number, expired = false) => ({
    _id: `${origin}-${currentAmount}`,
    createdAt: '2026-01-01T00:00:00Z',
    expiresAt: null,
    expired,
    invoiceId: null,
    origin,
    credits: { originalAmount: 10_000, currentAmount },
    invoiceNumber: null,
    invoiceName: origin,
  });
  it('counts what stays in the balance after a plan change, by where it came from', () => {
    const info = {
      creditNotes: [
        note('top-up', 20_000),
        note('subscription', 5_000),
        note('signup', 1_000),
        note('top-up', 3_000, true),
        note('top-up', 0),
      ],
    };
    expect(creditsKept(info)).toEqual({ total: 26_000, plan: 5_000, topUps: 20_000, other: 1_000 });
    expect(creditsKept({ creditNotes: [] })).toEqual({ total: 0, plan: 0, topUps: 0, other: 0 });
  });
});
