import type { BillingInfo } from '../../contract';

/** How the header's balance follows charges that are on their way (see `nextFollowDelay`). */
export const CREDITS_FOLLOW = {
  /** The first refetch after one that found charges on their way: a finished indexing shows within it. */
  firstMs: 3000,
  /** Each refetch that finds nothing changed waits this much longer than the last ... */
  growth: 1.5,
  /** ... up to this (a media stuck in indexing must not keep the app asking every 3 s). */
  maxMs: 30_000,
  /** A tab shown again refetches when its figures are older than this (charges made elsewhere). */
  staleMs: 15_000,
} as const;

/** Whether a charge or a grant landed between two fetches of the billing info. */
export const creditsChanged = (before: BillingInfo | null, after: BillingInfo) =>
  before !== null &&
  (before.creditsLeft !== after.creditsLeft ||
    before.creditNotes.length !== after.creditNotes.length ||
    before.subscription.product.id !== after.subscription.product.id);

/**
 * When to fetch the billing info again, or null not to: while the server reports charges on their
 * way (media being indexed, renders being made) or a change is awaited (a checkout's payment that
 * settles by webhook), the first refetch comes after 3 s and each one that finds nothing changed
 * waits 1.5 times longer, up to 30 s. `unchanged` counts the refetches in a row that changed nothing.
 */
export function nextFollowDelay(info: BillingInfo | null, unchanged: number, awaitingChange: boolean): number | null {
  if (!awaitingChange && !(info && info.pendingCharges > 0)) return null;
  return Math.min(CREDITS_FOLLOW.firstMs * CREDITS_FOLLOW.growth ** Math.max(0, unchanged), CREDITS_FOLLOW.maxMs);
}
