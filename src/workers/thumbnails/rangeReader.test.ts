import { describe, expect, it } from 'vitest';
import { RangeReadError, RangeReader } from './rangeReader';

const FILE = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);

/** A server for FILE that honours single ranges (or ignores them) and records each request. */
function server({ ignoreRanges = false } = {}) {
  const calls: string[] = [];
  let cancelled = 0;
  const fetchFn = (_url: string, init: RequestInit) => {
    const range = new Headers(init.headers).get('range') ?? '';
    calls.push(range);
    const m = /^bytes=(\d+)-(\d+)$/.exec(range);
    if (ignoreRanges || !m) {
      const body = new ReadableStream({ pull: (c) => c.enqueue(FILE), cancel: () => void cancelled++ });
      return Promise.resolve(new Response(body, { status: 200 }));
    }
    const start = Number(m[1]);
    const end = Math.min(FILE.length - 1, Number(m[2]));
    return Promise.resolve(
      new Response(FILE.slice(start, end + 1), { status: 206, headers: { 'content-range': `bytes ${start}-${end}/${FILE.length}` } }),
    );
  };
  return { calls, fetchFn, cancelled: () => cancelled };
}

describe('range reader', () => {
  it('reads byte ranges and learns the file size', async () => {
    const s = server();
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    expect(await r.read(0, 100)).toEqual(FILE.slice(0, 100));
    expect(r.size).toBe(10_000);
    expect(await r.read(9_990, 20_000)).toEqual(FILE.slice(9_990));
    expect(s.calls).toEqual(['bytes=0-99', 'bytes=9990-9999']);
    expect(r.bytesRead).toBe(110);
  });

  it('refuses a server that sends the whole file, and stops downloading it', async () => {
    const s = server({ ignoreRanges: true });
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    await expect(r.read(0, 100)).rejects.toThrow(RangeReadError);
    expect(s.cancelled()).toBe(1);
    expect(r.bytesRead).toBe(0);
  });

  it('serves repeated reads from its LRU', async () => {
    const s = server();
    const r = new RangeReader('http://x/a.mp4', s.fetchFn, 1000);
    await r.read(0, 500);
    expect(await r.read(100, 200)).toEqual(FILE.slice(100, 200));
    expect(s.calls).toHaveLength(1);
    await r.read(1000, 1600); // 1100 bytes held > 1000: the oldest range goes
    await r.read(100, 200);
    expect(s.calls).toHaveLength(3);
  });

  it('prefetches coalesced ranges, and a read of a part waits for that fetch instead of repeating it', async () => {
    const s = server();
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    const prefetch = r.prefetch(
      [
        { start: 0, end: 100 },
        { start: 120, end: 300 },
        { start: 5000, end: 5100 },
      ],
      50,
      2,
    );
    const [part] = await Promise.all([r.read(150, 200), prefetch]);
    expect(part).toEqual(FILE.slice(150, 200));
    expect(s.calls).toEqual(['bytes=0-299', 'bytes=5000-5099']);
    await r.prefetch([{ start: 10, end: 20 }], 0, 2);
    expect(s.calls).toHaveLength(2);
  });
});
