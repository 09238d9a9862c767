import { describe, expect, it } from 'vitest';
import { FREE_TRIAL_PRODUCT_ID, type BillingCreditNote, type BillingInfo } from '../../contract';
import { subscriptionProduct } from '../../../tests/fixtures/billing';
import {
  creditFigures,
  formatCredits,
  formatDate,
  hasSubscription,
  nextUsageCursor,
  notesBySpendOrder,
  renewalState,
} from './billingFigures';

const info = (sub: Partial<BillingInfo['subscription']> = {}, creditsLeft = 20_000): BillingInfo => ({
  creditsLeft,
  creditNotes: [],
  pendingCharges: 0,
  limits: { storageHours: 2 },
  usage: { storageHours: 0.5 },
  subscription: { status: null, termEnd: null, product: subscriptionProduct(FREE_TRIAL_PRODUCT_ID, 0), pendingProduct: null, ...sub },
});

const note = (
  id: string,
  expiresAt: string | null,
  current: number,
  expired = false,
  createdAt = '2026-01-01T00:00:00Z',
): BillingCreditNote => ({
  _id: id,
  createdAt,
  expiresAt,
  expired,
  invoiceId: null,
  origin: 'top-up',
  credits: { originalAmount: 100, currentAmount: current },
  invoiceNumber: null,
  invoiceName: 'Top-up',
});

describe('formatting', () => {
  it('shows credits as whole, grouped numbers and dates in one fixed form', () => {
    expect(formatCredits(1234567.4)).toBe('1,234,567');
    expect(formatCredits(-3000)).toBe('-3,000');
    expect(formatDate('2026-03-04T23:30:00Z')).toBe('Mar 4, 2026');
  });
});

describe('billing info', () => {
  it('derives processing time and storage left from the contract maths', () => {
    expect(creditFigures(info())).toEqual({
      credits: 20_000,
      planName: FREE_TRIAL_PRODUCT_ID,
      ingestLeftSeconds: 7200,
      storageLeftSeconds: 5400,
    });
    expect(creditFigures(info({}, -100)).ingestLeftSeconds).toBe(0);
  });

  it('tells a plan that renews, one that will not, and the Free Trial apart', () => {
    const pro = subscriptionProduct('pro', 3900);
    expect(renewalState(info({ status: 'active', termEnd: '2026-02-01T00:00:00Z', product: pro }).subscription)).toBe('renews');
    expect(renewalState(info({ status: null, termEnd: '2026-02-01T00:00:00Z', product: pro }).subscription)).toBe('ends');
    expect(renewalState(info().subscription)).toBe('none');
    expect(hasSubscription(info({ status: null, termEnd: '2026-02-01T00:00:00Z', product: pro }))).toBe(true);
    expect(hasSubscription(info())).toBe(false);
    expect(hasSubscription(null)).toBe(false);
  });

  it('lists credit notes in spending order: soonest expiry first, spent and expired last', () => {
    const notes = [
      note('never', null, 10),
      note('late', '2026-06-01T00:00:00Z', 10),
      note('spent', '2026-02-01T00:00:00Z', 0, false, '2026-01-02T00:00:00Z'),
      note('soon', '2026-02-01T00:00:00Z', 5),
      note('expired', '2025-12-01T00:00:00Z', 10, true, '2025-11-01T00:00:00Z'),
    ];
    expect(notesBySpendOrder(notes).map((n) => n._id)).toEqual(['soon', 'late', 'never', 'spent', 'expired']);
  });

  it('pages the usage history while pages come back full', () => {
    const entry = (i: number) => ({
      _id: String(i),
      updatedAt: `2026-01-${String(20 - i).padStart(2, '0')}T00:00:00Z`,
      kind: 'charge' as const,
      amount: 1,
      reason: '',
    });
    const full = Array.from({ length: 10 }, (_, i) => entry(i));
    expect(nextUsageCursor(full)).toBe('2026-01-11T00:00:00Z');
    expect(nextUsageCursor(full.slice(0, 3))).toBeNull();
    expect(nextUsageCursor([])).toBeNull();
  });
});
