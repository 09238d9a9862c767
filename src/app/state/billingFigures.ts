import {
  FREE_TRIAL_PRODUCT_ID,
  ingestLeftSeconds,
  storageLeftSeconds,
  USAGE_HISTORY_PAGE,
  type BillingCreditNote,
  type BillingInfo,
  type UsageHistoryEntry,
} from '../../contract';

/** Pure figures the credits box, billing tab and pricing page show; the maths itself lives in the contract. */

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A credit amount as people read it: 12,345 (fractions of a credit are not shown). */
export const formatCredits = (credits: number) => WHOLE.format(Math.round(credits) || 0);

/** A date for billing texts, e.g. 'Mar 4, 2026'; the same on every machine's locale. */
export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** The header's figures: balance, processing time it pays for, storage left. */
export function creditFigures(info: BillingInfo) {
  return {
    credits: info.creditsLeft,
    planName: info.subscription.product.name,
    ingestLeftSeconds: ingestLeftSeconds(info.creditsLeft),
    storageLeftSeconds: storageLeftSeconds(info.limits.storageHours, info.usage.storageHours),
  };
}

/** Whether the account pays for a plan (a cancelled one counts until its term ends). */
export const hasSubscription = (info: BillingInfo | null) => !!info && info.subscription.product.id !== FREE_TRIAL_PRODUCT_ID;

/** 'renews' (active), 'ends' (cancelled: will not renew) or 'none' (Free Trial). */
export function renewalState(subscription: BillingInfo['subscription']): 'renews' | 'ends' | 'none' {
  if (subscription.status === 'active') return 'renews';
  if (subscription.termEnd && subscription.product.id !== FREE_TRIAL_PRODUCT_ID) return 'ends';
  return 'none';
}

/**
 * Credit notes in the order they are spent: usable notes first, soonest expiry first (notes that
 * never expire last), then the spent and expired ones, newest first.
 */
export function notesBySpendOrder(notes: readonly BillingCreditNote[]): BillingCreditNote[] {
  const usable = (n: BillingCreditNote) => !n.expired && n.credits.currentAmount > 0;
  const expiry = (n: BillingCreditNote) => (n.expiresAt ? new Date(n.expiresAt).getTime() : Number.POSITIVE_INFINITY);
  return [...notes].sort((a, b) => {
    const ua = usable(a);
    const ub = usable(b);
    if (ua !== ub) return ua ? -1 : 1;
    if (ua) return expiry(a) - expiry(b);
    return new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime();
  });
}

/** The olderThan cursor for the next usage-history page, or null when the last page was not full. */
export function nextUsageCursor(page: readonly UsageHistoryEntry[]): string | null {
  if (page.length < USAGE_HISTORY_PAGE) return null;
  return page[page.length - 1]!.updatedAt;
}
