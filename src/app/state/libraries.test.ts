import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, type Library } from '../../contract';
import { internalError, loadSession, MemoryStorage, notFound, reply, tokenFor } from './stateTestKit';

/** The libraries list as a query: retried as the spec asks, changed by key after a mutation, kept per account. */

const lib = (id: string, name = id) => ({ _id: id, name }) as unknown as Library;
let server: { libraries: Library[]; failures: number; calls: number };

beforeEach(() => {
  vi.resetModules();
  server = { libraries: [lib('a'), lib('b')], failures: 0, calls: 0 };
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      if (url !== API.libraries) return notFound();
      server.calls++;
      if (server.failures-- > 0) return internalError();
      return reply({ data: server.libraries });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function load() {
  const { queryClient, queryKeys, ...session } = await loadSession();
  const libraries = await import('./libraries');
  const ids = (account: string) => queryClient.getQueryData<Library[]>(queryKeys.libraries(account))?.map((l) => l._id);
  return { ...session, ...libraries, queryClient, queryKeys, ids };
}

describe('the libraries query', () => {
  it('is retried three times with backoff (0.5, 1 and 2 s) before it fails', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const m = await load();
    m.setToken(tokenFor('u1'));
    server.failures = 3;
    const loaded = m.queryClient.fetchQuery(m.librariesQuery('u1'));
    for (let i = 0; i < 40; i++) await vi.advanceTimersByTimeAsync(100);
    await expect(loaded).resolves.toHaveLength(2);
    expect(server.calls).toBe(4);

    server.failures = 4;
    const failed = m.queryClient.fetchQuery(m.librariesQuery('u1')).catch((e: unknown) => e);
    for (let i = 0; i < 40; i++) await vi.advanceTimersByTimeAsync(100);
    expect(await failed).toMatchObject({ status: 500 });
    expect(server.calls).toBe(8);
  });

  it('takes a saved or deleted library at once and asks the server again', async () => {
    const m = await load();
    m.setToken(tokenFor('u2'));
    await m.queryClient.fetchQuery(m.librariesQuery('u2'));
    // no screen observes it here: the change is made by key, the refetch is for the screens that do
    void m.invalidateLibraries({ saved: lib('c') });
    expect(m.ids('u2')).toEqual(['a', 'b', 'c']);
    void m.invalidateLibraries({ saved: lib('a', 'Renamed') });
    expect(m.queryClient.getQueryData<Library[]>(m.queryKeys.libraries('u2'))?.[0]?.name).toBe('Renamed');
    void m.invalidateLibraries({ deleted: 'b' });
    expect(m.ids('u2')).toEqual(['a', 'c']);
    expect(m.queryClient.getQueryState(m.queryKeys.libraries('u2'))?.isInvalidated).toBe(true);
  });

  it("never shows another account's libraries", async () => {
    const m = await load();
    m.setToken(tokenFor('u3'));
    await m.queryClient.fetchQuery(m.librariesQuery('u3'));
    m.setToken(tokenFor('u4'));
    expect(m.ids('u3')).toBeUndefined();
    m.upsertLibrary(lib('z'));
    expect(m.ids('u4')).toBeUndefined();
  });
});
