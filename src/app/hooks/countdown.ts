import { RESEND_WAIT_MS } from '../../contract';

/** Whole seconds left until `untilMs`, rounded up so '1' shows until the wait is really over. */
export const secondsLeft = (untilMs: number | null, nowMs: number) =>
  untilMs === null ? 0 : Math.max(0, Math.ceil((untilMs - nowMs) / 1000));

/** A resend under the wait after the previous one is ignored (accounts spec, section 4). */
export const canResend = (lastSentAtMs: number | null, nowMs: number, waitMs = RESEND_WAIT_MS) =>
  lastSentAtMs === null || nowMs - lastSentAtMs >= waitMs;

/** When the wait that started at `sentAtMs` ends; a server-given retry time wins when it is later. */
export function waitUntil(sentAtMs: number, retryAfterSeconds?: number, waitMs = RESEND_WAIT_MS) {
  const server = retryAfterSeconds !== undefined ? sentAtMs + retryAfterSeconds * 1000 : 0;
  return Math.max(sentAtMs + waitMs, server);
}
