import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_DEBOUNCE_MS } from '../../../contract';
import { searchQuery, type Ask } from './useMomentSearch';

const key = (text: string, libs = ['lib1']) => JSON.stringify({ libs, type: 'visual', body: { text } } satisfies Ask);

/** The search query driven as the hook drives it (one observer whose options change), with a recorded `send`. */
function harness() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const sent: string[] = [];
  const aborted: string[] = [];
  const send = vi.fn((ask: Ask, signal: AbortSignal) => {
    const text = ask.body.text!;
    sent.push(text);
    signal.addEventListener('abort', () => aborted.push(text));
    return new Promise<{ results: never[]; medias: Record<string, never> }>((resolve) =>
      setTimeout(() => resolve({ results: [], medias: {} }), 50),
    );
  });
  const skip = { current: null as (() => void) | null };
  const observer = new QueryObserver(client, searchQuery(null, skip, send));
  const unsubscribe = observer.subscribe(() => {});
  const ask = (text: string | null, libs?: string[]) =>
    observer.setOptions(searchQuery(text === null ? null : key(text, libs), skip, send));
  return { sent, aborted, skip, observer, ask, done: () => (unsubscribe(), client.clear()) };
}

describe('the moment search query', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends after the debounce, only the last of quick changes', async () => {
    const h = harness();
    h.ask('d');
    h.ask('do');
    h.ask('dog');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.single - 1);
    expect(h.sent).toEqual([]);
    expect(h.observer.getCurrentResult().isFetching).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.sent).toEqual(['dog']);
    await vi.advanceTimersByTimeAsync(50);
    expect(h.observer.getCurrentResult().isFetching).toBe(false);
    expect(h.observer.getCurrentResult().data).toEqual({ results: [], medias: {} });
    h.done();
  });

  it('waits the longer debounce for several libraries', async () => {
    const h = harness();
    h.ask('dog', ['a', 'b']);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.single + 10);
    expect(h.sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.multi);
    expect(h.sent).toEqual(['dog']);
    h.done();
  });

  it('sends a request that comes back within the debounce (Back then Forward) and cancels the one in flight', async () => {
    const h = harness();
    h.ask('image');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.single + 100);
    expect(h.sent).toEqual(['image']);
    // Back, then Forward 100 ms later: the text search never goes out, the image one goes out again.
    h.ask('text');
    await vi.advanceTimersByTimeAsync(100);
    h.ask('image');
    // The earlier answer shows at once while it is asked anew.
    expect(h.observer.getCurrentResult().data).toEqual({ results: [], medias: {} });
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.single);
    expect(h.sent).toEqual(['image', 'image']);
    // A change while a request is out aborts it.
    h.ask('cat');
    await vi.advanceTimersByTimeAsync(1);
    expect(h.aborted).toEqual(['image']);
    h.done();
  });

  it('sends at once when asked to skip the wait', async () => {
    const h = harness();
    h.ask('dog');
    await vi.advanceTimersByTimeAsync(10);
    expect(h.skip.current).not.toBeNull();
    h.skip.current!();
    await vi.advanceTimersByTimeAsync(0);
    expect(h.sent).toEqual(['dog']);
    expect(h.skip.current).toBeNull();
    h.done();
  });

  it('asks nothing without a request', async () => {
    const h = harness();
    h.ask(null);
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS.multi * 2);
    expect(h.sent).toEqual([]);
    expect(h.observer.getCurrentResult().isFetching).toBe(false);
    h.done();
  });
});
