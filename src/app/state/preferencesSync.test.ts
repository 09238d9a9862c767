import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PREFERENCES_SYNC } from '../../contract';
import { backoffMs, PreferencesSync } from './preferencesSync';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A send whose calls resolve or fail as the test tells them to. */
function controlledSend() {
  const calls: Array<{ value: number; resolve: () => void; reject: (e: Error) => void }> = [];
  const send = (value: number) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ value, resolve, reject });
    });
  return { send, calls };
}

describe('preferences sync', () => {
  it('sends once, 300 ms after the last of a burst of changes, with the latest values', async () => {
    let value = 0;
    const sent: number[] = [];
    const sync = new PreferencesSync<number>(
      async (v) => void sent.push(v),
      () => value,
    );
    for (let i = 1; i <= 5; i++) {
      value = i;
      sync.changed();
      await vi.advanceTimersByTimeAsync(100);
    }
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(PREFERENCES_SYNC.debounceMs - 100 - 1);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([5]);
    expect(sync.busy).toBe(false);
  });

  it('retries a failed send 3 times after 1 s, 2 s and 4 s, then gives up', async () => {
    const attempts: number[] = [];
    const giveUp = vi.fn();
    const sync = new PreferencesSync<number>(
      async () => {
        attempts.push(Date.now());
        throw new Error('offline');
      },
      () => 1,
      giveUp,
    );
    const start = Date.now();
    sync.changed();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(attempts.map((t) => t - start)).toEqual([300, 1300, 3300, 7300]);
    expect(giveUp).toHaveBeenCalledOnce();
    expect(sync.busy).toBe(false);
  });

  it('caps the backoff at 5 s', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });

  it('follows a change made during a running send with another send 100 ms after it ends', async () => {
    let value = 1;
    const { send, calls } = controlledSend();
    const sync = new PreferencesSync<number>(send, () => value);
    sync.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(calls.map((c) => c.value)).toEqual([1]);

    value = 2;
    sync.changed();
    await vi.advanceTimersByTimeAsync(1000);
    // No second send while the first is running.
    expect(calls).toHaveLength(1);
    calls[0]!.resolve();
    await vi.advanceTimersByTimeAsync(PREFERENCES_SYNC.followUpMs - 1);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.map((c) => c.value)).toEqual([1, 2]);
    calls[1]!.resolve();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toHaveLength(2);
  });

  it('recovers when a retry succeeds, and a later change starts afresh', async () => {
    let fail = true;
    const sent: number[] = [];
    let value = 1;
    const sync = new PreferencesSync<number>(
      async (v) => {
        if (fail) throw new Error('flaky');
        sent.push(v);
      },
      () => value,
    );
    sync.changed();
    await vi.advanceTimersByTimeAsync(300);
    fail = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual([1]);
    value = 2;
    sync.changed();
    await vi.advanceTimersByTimeAsync(300);
    expect(sent).toEqual([1, 2]);
  });

  it('sends a waiting change at once when the page is left', async () => {
    const sent: number[] = [];
    const sync = new PreferencesSync<number>(
      async (v) => void sent.push(v),
      () => 7,
    );
    sync.changed();
    await vi.advanceTimersByTimeAsync(50);
    sync.flushNow();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([7]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toEqual([7]);
  });
});
