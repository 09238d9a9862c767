import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_MODAL_REFRESH_DEBOUNCE_MS } from '../../contract';
import { trailingDebounce } from './trailingDebounce';

describe('trailingDebounce (the upload modal data refresh, 300 ms)', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs once, 300 ms after the last of a burst of calls', () => {
    const fn = vi.fn();
    const d = trailingDebounce(fn, UPLOAD_MODAL_REFRESH_DEBOUNCE_MS);
    for (let i = 0; i < 20; i++) {
      d.call();
      vi.advanceTimersByTime(50);
    }
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(UPLOAD_MODAL_REFRESH_DEBOUNCE_MS - 51);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('calls far apart each run', () => {
    const fn = vi.fn();
    const d = trailingDebounce(fn, 300);
    d.call();
    vi.advanceTimersByTime(300);
    d.call();
    vi.advanceTimersByTime(300);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('flush runs a waiting call now, once; cancel drops it', () => {
    const fn = vi.fn();
    const d = trailingDebounce(fn, 300);
    d.flush();
    expect(fn).not.toHaveBeenCalled();
    d.call();
    expect(d.pending).toBe(true);
    d.flush();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
    d.call();
    d.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});
