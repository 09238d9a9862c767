import { describe, expect, it } from 'vitest';
import { TOAST_MAX_STACK } from '../../contract';
import { pushToast, type ToastItem } from './toastQueue';

const timed = (id: number): ToastItem => ({ id, message: `t${id}`, tone: 'info', durationMs: 3000 });
const progress = (id: number): ToastItem => ({ id, message: `p${id}`, tone: 'info', durationMs: null, progress: 0 });

describe('toast stack', () => {
  it('keeps at most three toasts, dropping the oldest', () => {
    let items: ToastItem[] = [];
    for (let i = 1; i <= 5; i++) items = pushToast(items, timed(i), TOAST_MAX_STACK);
    expect(items.map((t) => t.id)).toEqual([3, 4, 5]);
  });

  it('drops timed toasts before progress toasts', () => {
    let items = [progress(1), timed(2), progress(3)];
    items = pushToast(items, timed(4), TOAST_MAX_STACK);
    expect(items.map((t) => t.id)).toEqual([1, 3, 4]);
  });

  it('drops the oldest progress toast when only progress toasts are left', () => {
    const items = pushToast([progress(1), progress(2), progress(3)], progress(4), TOAST_MAX_STACK);
    expect(items.map((t) => t.id)).toEqual([2, 3, 4]);
  });

  it('always shows the newest toast, even a timed one among progress toasts', () => {
    const items = pushToast([progress(1), progress(2), progress(3)], timed(4), TOAST_MAX_STACK);
    expect(items.map((t) => t.id)).toEqual([2, 3, 4]);
  });
});
