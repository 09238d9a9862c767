/**
 * Toasts keep clear of an open dialog's buttons. They sit in the window's bottom right corner, which
 * is where a tall dialog's footer is (the moment dialog's Download and Close at 1280×800, the merge
 * editor's Download MP4): while the toasts there would cover the footer of the dialog on top, they
 * are lifted to just above it. Dialog registers its footer here; Toaster measures and lifts.
 */

const footers: HTMLElement[] = [];
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((fn) => fn());

/** Registers an open dialog's footer (the newest is the one on top); returns its removal. */
export function registerDialogFooter(el: HTMLElement): () => void {
  footers.push(el);
  notify();
  return () => {
    const i = footers.indexOf(el);
    if (i >= 0) footers.splice(i, 1);
    notify();
  };
}

/** The footer of the dialog on top, if a dialog with a footer is open. */
export const topDialogFooter = (): HTMLElement | null => footers.at(-1) ?? null;

export function subscribeDialogFooters(fn: () => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const overlap = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/**
 * How far (px) to lift the toasts from their place, given the rectangle they fill there (unlifted)
 * and the footer's: 0 when they do not cover it or it is out of the window, else enough for their
 * bottom to sit `gap` px above the footer's top.
 */
export function toastLift(toasts: Rect, footer: Rect | null, windowHeight: number, gap = 8): number {
  if (!footer || toasts.bottom <= toasts.top) return 0;
  if (footer.top >= windowHeight || footer.bottom <= 0) return 0;
  if (!overlap(toasts, footer)) return 0;
  return Math.max(0, Math.ceil(toasts.bottom - footer.top + gap));
}
