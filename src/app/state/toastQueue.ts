/** Pure rules of the toast stack, kept apart from the store so they can be tested without a DOM. */
export type ToastTone = 'info' | 'success' | 'error';

export interface ToastItem {
  id: number;
  message: string;
  /** A bold first line (the spec's toast header), above the message. */
  title?: string;
  tone: ToastTone;
  /** Milliseconds on screen; null keeps it until dismissed (progress toasts). */
  durationMs: number | null;
  /** 0..1 for progress toasts. */
  progress?: number;
}

/**
 * Adds a toast and trims the stack to `max`, dropping the oldest timed toasts first: a progress
 * toast stands for work still running and should not vanish because other news arrived.
 */
export function pushToast(items: readonly ToastItem[], toast: ToastItem, max: number): ToastItem[] {
  const next = [...items, toast];
  while (next.length > max) {
    const oldestTimed = next.findIndex((t) => t.durationMs !== null && t !== toast);
    next.splice(oldestTimed >= 0 ? oldestTimed : 0, 1);
  }
  return next;
}
