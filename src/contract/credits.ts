/** Credit maths of the specs (accounts section 9; libraries section 9), computed here once for both sides. */
export const CREDITS_PER_INGEST_HOUR = 10_000;
export const MIN_INGEST_SECONDS = 5;
/** A charge may take the balance down to this, never below. */
export const PURCHASE_TOLERANCE = -5_000;
export const WATERMARK_CREDITS_PER_MINUTE = 250;

/** Credits to index `seconds` of media: 10,000 an hour, durations under 5 s count as 5. */
export const ingestCost = (seconds: number) => Math.ceil((Math.max(MIN_INGEST_SECONDS, seconds) / 3600) * CREDITS_PER_INGEST_HOUR);
/** Credits to download `seconds` without the watermark: ceil(seconds / 60 × 250). */
export const watermarkRemovalCost = (seconds: number) => Math.ceil((seconds / 60) * WATERMARK_CREDITS_PER_MINUTE);
/** A time as renders take it: to the millisecond. */
export const renderTime = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** A range of one media in a render; with `mediaDuration`, an end past the media's end counts to its end, as the server cuts it. */
export interface RenderRange {
  start: number;
  end: number;
  mediaDuration?: number | null;
}

/** Seconds one render of `ranges` lasts, measured as the server measures it before charging. */
export function renderSeconds(ranges: readonly RenderRange[]): number {
  return ranges.reduce((sum, r) => {
    const end =
      r.mediaDuration === undefined || r.mediaDuration === null ? renderTime(r.end) : Math.min(renderTime(r.end), r.mediaDuration);
    return sum + (end - renderTime(r.start));
  }, 0);
}

/**
 * Credits one render of `ranges` without the watermark costs: the server charges exactly this, and
 * the app shows exactly this before anyone chooses it.
 */
export const renderCredits = (ranges: readonly RenderRange[]) => watermarkRemovalCost(renderSeconds(ranges));

/** Seconds of ingest the balance pays for. */
export const ingestLeftSeconds = (credits: number) => Math.max(0, (credits / CREDITS_PER_INGEST_HOUR) * 3600);
/** Seconds of storage left: 3600 × the remaining storage hours. */
export const storageLeftSeconds = (limitHours: number, usedHours: number) => Math.max(0, 3600 * (limitHours - usedHours));
/** Whether a charge of `cost` is allowed with `balance` (the tolerance lets it go slightly negative). */
export const canAfford = (balance: number, cost: number) => balance - cost >= PURCHASE_TOLERANCE;

export type CreditOrigin = 'signup' | 'subscription' | 'top-up' | 'adjustment';

export interface CreditNote {
  _id: string;
  createdAt: string;
  expiresAt: string | null;
  expired: boolean;
  invoiceId: string | null;
  origin: CreditOrigin;
  credits: { originalAmount: number; currentAmount: number };
}
