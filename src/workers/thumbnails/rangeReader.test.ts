import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { rangeResponse } from '../../server/http/byteRanges';
import { RangeReadError, RangeReader } from './rangeReader';

const FILE = Uint8Array.from({ length: 10_000 }, (_, i) => i % 251);

/**
 * A server for FILE that honours single ranges (or ignores them) and records each request; several
 * ranges are answered as the app's server does (multipart), or with the whole file, or merged into one.
 */
function server({ ignoreRanges = false, multi = 'multipart' as 'multipart' | 'whole' | 'merge' } = {}) {
  const calls: string[] = [];
  let cancelled = 0;
  const fetchFn = async (_url: string, init: RequestInit) => {
    const range = new Headers(init.headers).get('range') ?? '';
    calls.push(range);
    if (!ignoreRanges && range.includes(',') && multi === 'multipart') {
      const out = rangeResponse(range, FILE.length, 'video/mp4', (r) => Readable.from([Buffer.from(FILE.subarray(r.start, r.end))]));
      const chunks: Buffer[] = [];
      for await (const c of out.body!) chunks.push(c as Buffer);
      return new Response(Buffer.concat(chunks), { status: out.status, headers: out.headers as Record<string, string> });
    }
    if (!ignoreRanges && range.includes(',') && multi === 'merge') {
      const nums = [...range.matchAll(/\d+/g)].map((x) => Number(x[0]));
      const start = Math.min(...nums);
      const end = Math.max(...nums);
      return new Response(FILE.slice(start, end + 1), {
        status: 206,
        headers: { 'content-range': `bytes ${start}-${end}/${FILE.length}`, 'content-length': String(end - start + 1) },
      });
    }
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

  it('a prefetch leaves out ranges already on their way, whose readers wait for them', async () => {
    const s = server();
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    const whole = r.prefetch([{ start: 1_000, end: 9_000 }], 0, 1);
    const part = r.prefetch(
      [
        { start: 2_000, end: 2_100 },
        { start: 8_000, end: 8_500 },
        { start: 9_500, end: 9_600 },
      ],
      0,
      2,
    );
    expect(await r.read(8_000, 8_500)).toEqual(FILE.slice(8_000, 8_500));
    await Promise.all([whole, part]);
    expect(s.calls).toEqual(['bytes=1000-8999', 'bytes=9500-9599']);
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
    // One request for both ranges, answered in parts.
    expect(s.calls).toEqual(['bytes=0-299,5000-5099']);
    expect(r.multiRange).toBe(true);
    expect(await r.read(5000, 5100)).toEqual(FILE.slice(5000, 5100));
    expect(r.bytesRead).toBe(400);
    await r.prefetch([{ start: 10, end: 20 }], 0, 2);
    expect(s.calls).toHaveLength(1);
  });

  it('hands over each part of a multi-range answer as it arrives, before the rest of the body', async () => {
    const calls: string[] = [];
    let push!: (bytes: string) => void;
    let close!: () => void;
    const fetchFn = (_url: string, init: RequestInit) => {
      calls.push(new Headers(init.headers).get('range') ?? '');
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          push = (text) => c.enqueue(Uint8Array.from(text, (ch) => ch.charCodeAt(0)));
          close = () => c.close();
        },
      });
      return Promise.resolve(new Response(body, { status: 206, headers: { 'content-type': 'multipart/byteranges; boundary=B' } }));
    };
    const r = new RangeReader('http://x/a.mp4', fetchFn);
    const prefetch = r.prefetch(
      [
        { start: 0, end: 3 },
        { start: 1000, end: 1003 },
      ],
      0,
      2,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    const first = r.read(0, 3);
    push('--B\r\ncontent-range: bytes 0-2/2000\r\n\r\nabc\r\n');
    expect(Array.from(await first)).toEqual([97, 98, 99]);
    const second = r.read(1000, 1003);
    push('--B\r\ncontent-range: bytes 1000-1002/2000\r\n\r\nxyz\r\n--B--\r\n');
    close();
    expect(Array.from(await second)).toEqual([120, 121, 122]);
    await prefetch;
    expect(calls).toEqual(['bytes=0-2,1000-1002']);
    expect(r.size).toBe(2000);
  });

  it('falls back to one range per request when the server answers several with the whole file, and remembers', async () => {
    const s = server({ multi: 'whole' });
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    const far = [
      { start: 0, end: 100 },
      { start: 5000, end: 5100 },
    ];
    await r.prefetch(far, 0, 2);
    expect(s.cancelled()).toBe(1);
    expect(r.multiRange).toBe(false);
    expect(await r.read(5000, 5100)).toEqual(FILE.slice(5000, 5100));
    await r.prefetch(
      [
        { start: 7000, end: 7100 },
        { start: 9000, end: 9100 },
      ],
      0,
      2,
    );
    expect(s.calls).toEqual(['bytes=0-99,5000-5099', 'bytes=0-99', 'bytes=5000-5099', 'bytes=7000-7099', 'bytes=9000-9099']);
  });

  it('takes one merged range for several when it is not much more than asked', async () => {
    const s = server({ multi: 'merge' });
    const r = new RangeReader('http://x/a.mp4', s.fetchFn);
    await r.prefetch(
      [
        { start: 0, end: 100 },
        { start: 5000, end: 5100 },
      ],
      0,
      2,
    );
    expect(s.calls).toEqual(['bytes=0-99,5000-5099']);
    expect(await r.read(5000, 5100)).toEqual(FILE.slice(5000, 5100));
    expect(s.calls).toHaveLength(1);
  });
});
