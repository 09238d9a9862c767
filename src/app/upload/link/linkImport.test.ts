import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/ApiError';
import { MSG_EXTERNAL, type ExternalAddAnswer, type LinkInfo, type LinkVideo } from '../../../contract';
import { addInBatches, AddedUrlMemory, filterByDuration, linkStatusText, nameGenerationDelay, nextSort, sortVideos } from './linkImport';

const video = (n: number, duration: number | null, extra: Partial<LinkVideo> = {}): LinkVideo => ({
  id: `v${n}`,
  title: `Video ${n}`,
  url: `https://example.com/${n}.mp4`,
  duration,
  thumbnail: null,
  description: null,
  publishedAt: null,
  uniqueId: `u${n}`,
  ...extra,
});
const info = (videos: LinkVideo[], type: LinkInfo['type'] = 'playlist'): LinkInfo => ({
  type,
  title: 'Feed',
  channel: { name: null, thumbnail: null },
  videos,
});

describe('linkStatusText (section 4)', () => {
  it('gives the loading, duplicate and error lines', () => {
    expect(linkStatusText({ kind: 'loading' })).toBe('Checking link...');
    expect(linkStatusText({ kind: 'duplicate' })).toBe('This video is already in your library.');
    expect(linkStatusText({ kind: 'error', message: MSG_EXTERNAL.invalidUrl })).toBe('Please enter a valid URL.');
  });
  it('counts only videos with a numeric duration, with their total', () => {
    const status = { kind: 'valid' as const, info: info([video(1, 4), video(2, 65), video(3, null)]) };
    expect(linkStatusText(status)).toBe('Ready for upload • 2 video(s) found • 1:09 total duration');
  });
  it('uses the playlist wording for a watch link that names a playlist', () => {
    const status = { kind: 'valid' as const, info: info([video(1, 4, { url: 'https://www.youtube.com/watch?v=aaaaaaaaaaa' })]) };
    expect(linkStatusText(status)).toBe('Ready for upload • 1 video(s) found in playlist • 0:04 total playlist duration');
  });
  it('says only ready when no duration is known', () => {
    expect(linkStatusText({ kind: 'valid', info: info([video(1, null)], 'single') })).toBe('Ready for upload.');
  });
});

describe('AddedUrlMemory (10 minutes)', () => {
  it('refuses a URL added within 10 minutes and forgets it after', () => {
    let now = 0;
    const memory = new AddedUrlMemory(() => now);
    memory.remember(['https://example.com/a.mp4']);
    now = 10 * 60 * 1000 - 1;
    expect(memory.has('https://example.com/a.mp4')).toBe(true);
    expect(memory.has(' https://example.com/a.mp4 ')).toBe(true);
    expect(memory.has('https://example.com/b.mp4')).toBe(false);
    now = 10 * 60 * 1000;
    expect(memory.has('https://example.com/a.mp4')).toBe(false);
  });
});

describe('addInBatches (section 9)', () => {
  const items = Array.from({ length: 250 }, (_, i) => ({ url: `https://example.com/${i}.mp4`, name: `${i}` }));
  const ok = (batch: Array<{ url: string }>): ExternalAddAnswer => ({ media: batch.map((b) => ({ _id: b.url }) as never), failed: [] });

  it('sends batches of 100', async () => {
    const sizes: number[] = [];
    const r = await addInBatches(items, async (b) => (sizes.push(b.length), ok(b)));
    expect(sizes).toEqual([100, 100, 50]);
    expect(r.media).toHaveLength(250);
  });

  it('retries a failing batch up to 3 times, waiting 100, 200, 400 ms', async () => {
    vi.useFakeTimers();
    const calls: number[] = [];
    const done = addInBatches(items.slice(0, 3), async (b) => {
      calls.push(Date.now());
      if (calls.length < 4) throw new ApiError('internal', 'boom', 500);
      return ok(b);
    });
    await vi.runAllTimersAsync();
    const r = await done;
    vi.useRealTimers();
    expect(calls).toHaveLength(4);
    expect(calls.slice(1).map((t, i) => t - calls[i]!)).toEqual([100, 200, 400]);
    expect(r.media).toHaveLength(3);
  });

  it('gives up after 3 retries and reports the batch as failed; a refusal is not retried', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const done = addInBatches(items.slice(0, 2), async () => {
      calls++;
      throw new ApiError('internal', 'boom', 500);
    });
    await vi.runAllTimersAsync();
    const r = await done;
    vi.useRealTimers();
    expect(calls).toBe(4);
    expect(r.failed).toEqual(items.slice(0, 2).map((i) => ({ url: i.url, message: 'boom' })));
    calls = 0;
    await addInBatches(items.slice(0, 2), async () => {
      calls++;
      throw new ApiError('bad_request', 'no', 400);
    });
    expect(calls).toBe(1);
  });
});

describe('grid sort and duration filter', () => {
  const rows = [video(1, 30, { title: 'b' }), video(2, 7200, { title: 'A' }), video(3, 90, { title: 'c' })] as Array<
    LinkVideo & { duration: number }
  >;
  it('sorts ascending first, then descending', () => {
    const first = nextSort(null, 'duration');
    expect(first).toEqual({ key: 'duration', dir: 'asc' });
    expect(sortVideos(rows, first).map((r) => r.id)).toEqual(['v1', 'v3', 'v2']);
    const second = nextSort(first, 'duration');
    expect(sortVideos(rows, second).map((r) => r.id)).toEqual(['v2', 'v3', 'v1']);
    expect(nextSort(second, 'duration').dir).toBe('asc');
    expect(nextSort(second, 'title')).toEqual({ key: 'title', dir: 'asc' });
    expect(sortVideos(rows, { key: 'title', dir: 'asc' }).map((r) => r.title)).toEqual(['A', 'b', 'c']);
  });
  it('filters in seconds, minutes or hours and ignores non-numeric input', () => {
    expect(filterByDuration(rows, '60', 'seconds', 'gte').map((r) => r.id)).toEqual(['v2', 'v3']);
    expect(filterByDuration(rows, '1', 'minutes', 'lte').map((r) => r.id)).toEqual(['v1']);
    expect(filterByDuration(rows, '2', 'hours', 'gte').map((r) => r.id)).toEqual(['v2']);
    expect(filterByDuration(rows, 'abc', 'hours', 'gte')).toHaveLength(3);
  });
});

describe('small rules', () => {
  it('generates a name after 1 to 3 seconds', () => {
    expect(nameGenerationDelay(() => 0)).toBe(1000);
    expect(nameGenerationDelay(() => 1)).toBe(3000);
  });
});
