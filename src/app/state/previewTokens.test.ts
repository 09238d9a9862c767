import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage, reply, tokenFor } from './stateTestKit';

/** Preview tokens on TanStack Query: one request for concurrent callers, renewed before they expire, kept per account. */

let storage: MemoryStorage;
let issued: number;
/** How long the server's tokens last. */
let lifetimeMs: number;

beforeEach(() => {
  vi.resetModules();
  storage = new MemoryStorage();
  issued = 0;
  lifetimeMs = 3600_000;
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      issued++;
      return reply({ data: { previewToken: `pt${issued}`, expiresAt: new Date(Date.now() + lifetimeMs).toISOString() } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function load() {
  const session = await import('./session');
  const tokens = await import('./previewTokens');
  return { ...session, ...tokens };
}

describe('preview tokens', () => {
  it('is fresh until five minutes before it expires', async () => {
    const { tokenFreshFor } = await load();
    const now = 1_000_000;
    expect(tokenFreshFor({ token: 't', expiresAt: now + 3600_000 }, now)).toBe(3600_000 - 300_000);
    expect(tokenFreshFor({ token: 't', expiresAt: now + 60_000 }, now)).toBe(0);
    expect(tokenFreshFor(undefined, now)).toBe(0);
  });

  it('asks once for concurrent callers, hands the same token until it is about to expire, then renews it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const m = await load();
    m.setToken(tokenFor('u1'));
    const [a, b] = await Promise.all([m.ensurePreviewToken('lib1'), m.ensurePreviewToken('lib1')]);
    expect([a, b, issued]).toEqual(['pt1', 'pt1', 1]);
    vi.setSystemTime(Date.now() + 50 * 60_000);
    expect(await m.ensurePreviewToken('lib1')).toBe('pt1');
    expect(m.previewTokenOf('lib1')).toBe('pt1');
    // 4 minutes left: within the margin, a new one is fetched
    vi.setSystemTime(Date.now() + 6 * 60_000);
    expect(await m.ensurePreviewToken('lib1')).toBe('pt2');
    expect(await m.ensurePreviewToken('lib2')).toBe('pt3');
  });

  it('keeps an account its tokens across a reload, and forgets them when the session ends', async () => {
    let m = await load();
    m.setToken(tokenFor('u2'));
    expect(await m.ensurePreviewToken('lib1')).toBe('pt1');

    vi.resetModules();
    m = await load();
    m.setToken(tokenFor('u2'));
    expect(await m.ensurePreviewToken('lib1')).toBe('pt1');
    expect(issued).toBe(1);

    m.setToken(tokenFor('u3'));
    expect(m.previewTokenOf('lib1')).toBeNull();
    expect(await m.ensurePreviewToken('lib1')).toBe('pt2');

    m.setToken(null);
    await vi.waitFor(() => expect(storage.getItem('clipseek.previewTokens')).toBeNull());
    expect(await m.ensurePreviewToken('lib1')).toBeNull();
  });
});
