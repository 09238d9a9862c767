import {
  formatPrice,
  planButtonLabel,
  TOP_UP_MAX_QUANTITY,
  type BillingInfo,
  type Price,
  type SubscriptionProduct,
} from '../../../contract';
import { hasSubscription } from '../../state/billingFigures';

/**
 * What a plan card's button does (spec sections 2 and 4): visitors register; a user without a
 * subscription buys directly; a user with one confirms an upgrade or a downgrade first. The current
 * plan, and a downgrade already waiting for the next cycle, cannot be chosen again.
 */
export type PlanAction =
  | { kind: 'register'; label: string }
  | { kind: 'loading'; label: string }
  | { kind: 'current'; label: string }
  | { kind: 'scheduled'; label: string }
  | { kind: 'buy'; label: string }
  | { kind: 'change'; label: string; direction: 'upgrade' | 'downgrade' };

export function planAction(target: SubscriptionProduct, signedIn: boolean, info: BillingInfo | null): PlanAction {
  if (!signedIn) return { kind: 'register', label: planButtonLabel(target, null, false) };
  if (!info) return { kind: 'loading', label: planButtonLabel(target, null, true) };
  const subscribed = hasSubscription(info);
  const current = subscribed ? info.subscription.product : null;
  const label = planButtonLabel(target, current, true);
  if (!current) return { kind: 'buy', label };
  if (current.id === target.id) return { kind: 'current', label };
  if (info.subscription.pendingProduct?.id === target.id) return { kind: 'scheduled', label };
  return { kind: 'change', label, direction: target.price.unit_amount < current.price.unit_amount ? 'downgrade' : 'upgrade' };
}

/** A top-up quantity within what a purchase accepts (1 to TOP_UP_MAX_QUANTITY), from any input. */
export function clampQuantity(value: number): number {
  if (!Number.isFinite(value)) return 1;
  return Math.min(TOP_UP_MAX_QUANTITY, Math.max(1, Math.floor(value)));
}

/**
 * The storage allowance once `target` is the plan: the allowance is the plan's hours plus the hours
 * top-ups added, so the top-up part carries over.
 */
export function storageAfterChange(info: BillingInfo, target: SubscriptionProduct): number {
  const fromTopUps = Math.max(0, info.limits.storageHours - info.subscription.product.quota.storageHours);
  return target.quota.storageHours + fromTopUps;
}

/** How often a plan's price is charged, as people say it: 'month', '3 months' (a plan without an interval is monthly). */
export function billingInterval(price: Pick<Price, 'interval' | 'interval_count'>): string {
  const unit = price.interval ?? 'month';
  const count = Math.max(1, Math.floor(price.interval_count || 1));
  return count === 1 ? unit : `${count} ${unit}s`;
}

/** A plan's price with its interval: '$29 per month', '$80 every 3 months'. */
export function priceWithInterval(price: Price): string {
  const interval = billingInterval(price);
  return `${formatPrice(price.unit_amount, price.currency)} ${/^\d/.test(interval) ? 'every' : 'per'} ${interval}`;
}

/**
 * The credits a plan change leaves in the balance, by where they came from (unexpired notes only).
 * A change is not prorated (spec section 4: an upgrade is paid now, in full, and starts a new cycle):
 * what was bought before (the plan's credits, top-ups) is already credits, and those stay.
 */
export function creditsKept(info: Pick<BillingInfo, 'creditNotes'>): { total: number; plan: number; topUps: number; other: number } {
  const kept = { total: 0, plan: 0, topUps: 0, other: 0 };
  for (const n of info.creditNotes) {
    const left = n.expired ? 0 : Math.max(0, n.credits.currentAmount);
    if (!left) continue;
    kept.total += left;
    if (n.origin === 'subscription') kept.plan += left;
    else if (n.origin === 'top-up') kept.topUps += left;
    else kept.other += left;
  }
  return kept;
}
