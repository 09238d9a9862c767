import { describe, expect, it } from 'vitest';
import type { BillingInfo } from '../../contract';
import { CREDITS_FOLLOW, creditsChanged, nextFollowDelay } from './creditsFollow';

const info = (creditsLeft: number, pendingCharges = 0, notes = 1, product = 'free'): BillingInfo =>
  ({
    creditsLeft,
    pendingCharges,
    creditNotes: Array.from({ length: notes }, (_, i) => ({ _id: String(i) })),
    subscription: { product: { id: product } },
  }) as unknown as BillingInfo;

describe('following charges on their way', () => {
  it('refetches after 3 s while charges are on their way, slower each time nothing changed, at most every 30 s', () => {
    expect(nextFollowDelay(info(20_000, 1), 0, false)).toBe(3000);
    expect(nextFollowDelay(info(20_000, 1), 1, false)).toBe(4500);
    expect(nextFollowDelay(info(20_000, 2), 2, false)).toBe(6750);
    expect(nextFollowDelay(info(20_000, 1), 50, false)).toBe(CREDITS_FOLLOW.maxMs);
  });

  it('stops when nothing is on its way and no change is awaited', () => {
    expect(nextFollowDelay(info(19_562, 0), 0, false)).toBeNull();
    expect(nextFollowDelay(null, 0, false)).toBeNull();
    // a checkout paid elsewhere: followed until its credits arrive
    expect(nextFollowDelay(info(19_562, 0), 0, true)).toBe(3000);
    expect(nextFollowDelay(null, 3, true)).toBe(10_125);
  });

  it('sees a charge, a grant and a plan change, but not a first fetch', () => {
    expect(creditsChanged(null, info(20_000))).toBe(false);
    expect(creditsChanged(info(20_000, 1), info(20_000, 1))).toBe(false);
    expect(creditsChanged(info(20_000, 1), info(19_562, 0))).toBe(true);
    expect(creditsChanged(info(20_000), info(20_000, 0, 2))).toBe(true);
    expect(creditsChanged(info(20_000), info(20_000, 0, 1, 'pro'))).toBe(true);
  });
});
