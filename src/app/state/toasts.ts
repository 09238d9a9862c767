import { proxy } from 'valtio';
import { TOAST_DEFAULT_MS, TOAST_MAX_STACK } from '../../contract';
import { pushToast, type ToastItem, type ToastTone } from './toastQueue';

export const toasts = proxy<{ items: ToastItem[] }>({ items: [] });

let nextId = 1;

export function showToast(message: string, options: { tone?: ToastTone; durationMs?: number; title?: string } = {}): number {
  const id = nextId++;
  const item: ToastItem = { id, message, tone: options.tone ?? 'info', durationMs: options.durationMs ?? TOAST_DEFAULT_MS };
  if (options.title) item.title = options.title;
  toasts.items = pushToast(toasts.items, item, TOAST_MAX_STACK);
  return id;
}

export function dismissToast(id: number) {
  toasts.items = toasts.items.filter((t) => t.id !== id);
}

export interface ProgressToast {
  update(progress: number, message?: string): void;
  /** Replaces the progress toast with a regular, timed one. */
  done(message?: string, tone?: ToastTone): void;
  /**
   * Turns this very toast into a timed one saying how the work ended (in place, so the two states are
   * never on screen together); shown anew when the progress toast was swiped away meanwhile.
   */
  settle(outcome: { message: string; title?: string; tone?: ToastTone; durationMs?: number }): void;
  dismiss(): void;
}

/** A toast that stays until the work it reports is done. */
export function showProgressToast(message: string, options: { title?: string } = {}): ProgressToast {
  const id = nextId++;
  const item: ToastItem = { id, message, tone: 'info', durationMs: null, progress: 0 };
  if (options.title) item.title = options.title;
  toasts.items = pushToast(toasts.items, item, TOAST_MAX_STACK);
  return {
    update(progress, text) {
      const item = toasts.items.find((t) => t.id === id);
      if (!item) return;
      item.progress = Math.min(1, Math.max(0, progress));
      if (text) item.message = text;
    },
    done(text, tone = 'success') {
      dismissToast(id);
      if (text) showToast(text, { tone });
    },
    settle({ message, title, tone = 'success', durationMs = TOAST_DEFAULT_MS }) {
      const item = toasts.items.find((t) => t.id === id);
      if (!item) {
        showToast(message, { title, tone, durationMs });
        return;
      }
      item.message = message;
      item.tone = tone;
      item.durationMs = durationMs;
      delete item.progress;
      if (title) item.title = title;
      else delete item.title;
    },
    dismiss: () => dismissToast(id),
  };
}
