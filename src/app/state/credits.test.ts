import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, MSG, type BillingInfo } from '../../contract';
import { internalError, loadSession, MemoryStorage, notFound, reply, tokenFor } from './stateTestKit';

/** The credits query on TanStack Query: its follow schedule, its invalidation and its failure toast. */

const info = (creditsLeft: number, pendingCharges = 0) =>
  ({ creditsLeft, pendingCharges, creditNotes: [], subscription: { product: { id: 'free' } } }) as unknown as BillingInfo;

let server: { credits: number; pending: number; fail: boolean; calls: number };

beforeEach(() => {
  vi.resetModules();
  server = { credits: 20_000, pending: 0, fail: false, calls: 0 };
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url !== API.billingInfo) return notFound();
      server.calls++;
      if (server.fail) return internalError();
      return reply({ data: info(server.credits, server.pending) });
    }),
  );
});

afterEach(async () => {
  const { environmentManager } = await import('@tanstack/react-query');
  environmentManager.setIsServer(() => typeof window === 'undefined');
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function load() {
  const credits = await import('./credits');
  const toasts = await import('./toasts');
  return { ...(await loadSession()), ...credits, toasts: toasts.toasts };
}

describe('the follow schedule (refetchInterval)', () => {
  it('follows charges on their way: 3 s, slower each time nothing changed, failures counted as unchanged', async () => {
    const { followDelay } = await load();
    const data = (unchanged: number, pending: number, failuresBefore = 0) => ({ info: info(20_000, pending), unchanged, failuresBefore });
    expect(followDelay(data(1, 1), 0, 'u1')).toBe(3000);
    expect(followDelay(data(2, 1), 0, 'u1')).toBe(4500);
    // two failed refetches since the last answer, which was the first unchanged one
    expect(followDelay(data(1, 1, 4), 6, 'u1')).toBe(6750);
    expect(followDelay(data(1, 0), 0, 'u1')).toBeNull();
    expect(followDelay(undefined, 1, 'u1')).toBeNull();
  });

  it('follows a checkout until its credits arrive, for its own account only', async () => {
    const m = await load();
    m.setToken(tokenFor('u1'));
    await m.invalidateCredits();
    const key = m.queryKeys.credits('u1');
    const interval = () => m.followDelay(m.queryClient.getQueryData(key), m.queryClient.getQueryState(key)!.errorUpdateCount, 'u1');
    expect(interval()).toBeNull();
    await m.awaitCreditsChange();
    expect(interval()).toBe(3000);
    expect(m.followDelay(undefined, 0, 'someone-else')).toBeNull();
    // the credits arrived: the follow stops
    server.credits = 120_000;
    await m.invalidateCredits({ quiet: true });
    expect(m.creditsInfo()?.creditsLeft).toBe(120_000);
    expect(interval()).toBeNull();
  });

  it('refetches on its own while charges are on their way, and stops once they are done', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const m = await load();
    // The unit tier has no window: TanStack would take it for a server and keep no timers.
    const { environmentManager } = await import('@tanstack/react-query');
    environmentManager.setIsServer(() => false);
    server.pending = 1;
    m.setToken(tokenFor('u2'));
    await m.invalidateCredits();
    expect(server.calls).toBe(1);
    server.credits = 19_500;
    server.pending = 0;
    await vi.advanceTimersByTimeAsync(3100);
    expect(server.calls).toBe(2);
    expect(m.creditsInfo()?.creditsLeft).toBe(19_500);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls).toBe(2);
  });
});

describe('invalidateCredits', () => {
  it('fetches the figures again after a charge, and toasts a failure unless quiet', async () => {
    const m = await load();
    m.setToken(tokenFor('u3'));
    expect((await m.invalidateCredits())?.creditsLeft).toBe(20_000);
    server.credits = 18_000;
    expect((await m.invalidateCredits({ quiet: true }))?.creditsLeft).toBe(18_000);

    server.fail = true;
    expect(await m.invalidateCredits({ quiet: true })).toBeNull();
    expect(m.toasts.items).toHaveLength(0);
    expect(await m.invalidateCredits()).toBeNull();
    expect(m.toasts.items.map((t) => t.message)).toEqual([MSG.creditsRefreshFailed]);
    // what was shown stays
    expect(m.creditsInfo()?.creditsLeft).toBe(18_000);
  });

  it('keeps each account to its own figures, and leaves nothing once signed out', async () => {
    const m = await load();
    m.setToken(tokenFor('u4'));
    await m.invalidateCredits();
    server.credits = 5;
    m.setToken(tokenFor('u5'));
    expect(m.creditsInfo()).toBeNull();
    expect((await m.invalidateCredits())?.creditsLeft).toBe(5);
    expect(m.queryClient.getQueryData(m.queryKeys.credits('u4'))).toBeUndefined();
    m.setToken(null);
    expect(m.creditsInfo()).toBeNull();
    expect(await m.invalidateCredits()).toBeNull();
    expect(m.queryClient.getQueryData(m.queryKeys.credits('u5'))).toBeUndefined();
  });
});
