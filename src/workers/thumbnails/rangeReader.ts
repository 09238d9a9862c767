import { byterangesBoundary, MultipartRangeParser, parseContentRange } from './multipartRanges';
import { coalesceRanges, type ByteRange } from './sampleTable';

/**
 * Ranges one multi-range request asks for, and the bytes it may carry. A request costs Chromium
 * several milliseconds of CPU across its processes (measured: ~6 ms each for 300 requests of
 * 100 KB, without automation), more than a keyframe takes to transfer, so a view's keyframes are
 * asked for together; the limit on bytes keeps a few requests in flight for long exact-frame batches.
 */
export const MAX_PARTS = 32;
export const MAX_MULTI_BYTES = 4 * 1024 * 1024;

export class RangeReadError extends Error {
  readonly code = 'range_read';
  constructor(message: string) {
    super(message);
    this.name = 'RangeReadError';
  }
}

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

interface Cached {
  start: number;
  bytes: Uint8Array;
}

/**
 * Reads a remote file by HTTP byte ranges only. A server that answers a range with the whole file
 * (200) is refused and its body cancelled, so a large original is never downloaded by accident.
 * Recently fetched ranges are kept in a small LRU, so samples shared by neighbouring requests (the
 * same keyframe for two tiles, a GOP decoded again) are not fetched twice.
 */
export class RangeReader {
  /** Total size of the file, known after the first read. */
  size: number | undefined;
  bytesRead = 0;
  requests = 0;
  /** Whether the server answers several ranges in one multipart response; unknown until tried. */
  multiRange: boolean | undefined;
  private readonly lru: Cached[] = []; // most recently used last
  private lruBytes = 0;
  private readonly inFlight = new Set<{ start: number; end: number; done: Promise<unknown> }>();

  constructor(
    readonly url: string,
    private readonly fetchFn: FetchLike = (u, i) => fetch(u, i),
    private readonly lruMaxBytes = 24 * 1024 * 1024,
  ) {}

  /** Bytes [start, end) of the file; `end` is clamped to the file size once known. */
  async read(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    if (this.size !== undefined) end = Math.min(end, this.size);
    const hit = this.cached(start, end);
    if (hit) return hit;
    // A prefetch already on its way with these bytes: wait for it rather than asking again.
    for (const f of this.inFlightWith(start, end)) {
      await f.done.catch(() => undefined);
      const after = this.cached(start, end);
      if (after) return after;
    }
    const pending = { start, end, done: this.fetchRange(start, end, signal) };
    this.inFlight.add(pending);
    try {
      return await pending.done;
    } finally {
      this.inFlight.delete(pending);
    }
  }

  private async fetchRange(start: number, end: number, signal?: AbortSignal): Promise<Uint8Array> {
    const res = await this.fetchFn(this.url, { headers: { range: `bytes=${start}-${end - 1}` }, signal });
    this.requests++;
    if (res.status !== 206) {
      await res.body?.cancel().catch(() => undefined);
      throw new RangeReadError(
        res.status === 200 ? 'The media server ignored the byte range' : `Reading the media failed (HTTP ${res.status})`,
      );
    }
    const total = parseContentRange(res.headers.get('content-range'))?.size;
    if (total !== undefined) this.size = total;
    const bytes = new Uint8Array(await res.arrayBuffer());
    this.bytesRead += bytes.length;
    this.remember(start, bytes);
    return bytes;
  }

  /**
   * Fetches `ranges` (coalesced: neighbouring samples share a range; those already cached or on their
   * way are left out) into the LRU, several ranges
   * per request where the server allows it and at most `parallel` requests at a time; `read` of any
   * part of them waits for its bytes instead of fetching them again, and gets them as soon as its
   * part of a multi-range response has arrived.
   */
  async prefetch(ranges: readonly ByteRange[], maxGap: number, parallel: number, signal?: AbortSignal): Promise<void> {
    const missing = coalesceRanges(ranges, maxGap, 16 * 1024 * 1024).filter(
      (r) => !this.cached(r.start, r.end) && this.inFlightWith(r.start, r.end).length === 0,
    );
    // Register every range as in flight at once, so readers wait for it even before its request starts.
    const gates = missing.map(() => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    });
    const entries = missing.map((r, i) => {
      const entry = { start: r.start, end: r.end, done: gates[i]!.opened };
      this.inFlight.add(entry);
      return entry;
    });
    const arrived = (i: number) => {
      this.inFlight.delete(entries[i]!);
      gates[i]!.open();
    };
    /** Fetches range i alone (after a refused or failed multi-range request, or when it is the only one). */
    const single = async (i: number) => {
      const r = missing[i]!;
      try {
        this.inFlight.delete(entries[i]!);
        await this.read(r.start, r.end, signal);
      } finally {
        gates[i]!.open();
      }
    };
    const groups = this.groups(missing);
    let next = 0;
    const lane = async () => {
      while (next < groups.length) {
        const group = groups[next++]!;
        if (group.length > 1 && this.multiRange !== false) {
          const got = new Set<number>();
          try {
            await this.fetchParts(
              group.map((i) => missing[i]!),
              signal,
              (k) => {
                got.add(group[k]!);
                arrived(group[k]!);
              },
            );
          } catch (e) {
            if (signal?.aborted) throw e;
          }
          for (const i of group) if (!got.has(i)) await single(i);
        } else for (const i of group) await single(i);
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(parallel, groups.length) }, lane));
    } finally {
      // After a failure nobody may wait forever: waiting readers fetch what is still missing themselves.
      for (const g of gates) g.open();
      for (const e of entries) this.inFlight.delete(e);
    }
  }

  /** Indexes of `ranges` (sorted) in request-sized groups: up to MAX_PARTS ranges and MAX_MULTI_BYTES each. */
  private groups(ranges: readonly ByteRange[]): number[][] {
    const out: number[][] = [];
    let bytes = 0;
    ranges.forEach((r, i) => {
      const last = out[out.length - 1];
      const size = r.end - r.start;
      if (last && last.length < MAX_PARTS && bytes + size <= MAX_MULTI_BYTES) {
        last.push(i);
        bytes += size;
      } else {
        out.push([i]);
        bytes = size;
      }
    });
    return out;
  }

  /**
   * Asks for several ranges in one request and caches each part of the multipart answer as it
   * arrives, calling `arrived(k)` for each range k it completes. A server that answers otherwise
   * (the whole file, one merged range far larger than asked, an error) is remembered as not
   * serving multiple ranges; the caller then fetches what did not arrive one range at a time.
   */
  private async fetchParts(ranges: readonly ByteRange[], signal: AbortSignal | undefined, arrived: (k: number) => void) {
    const header = `bytes=${ranges.map((r) => `${r.start}-${r.end - 1}`).join(',')}`;
    const res = await this.fetchFn(this.url, { headers: { range: header }, signal });
    this.requests++;
    const boundary = byterangesBoundary(res.headers.get('content-type'));
    const done = new Set<number>();
    const settle = () =>
      ranges.forEach((r, k) => {
        if (!done.has(k) && this.cached(r.start, r.end)) {
          done.add(k);
          arrived(k);
        }
      });
    if (res.status === 206 && boundary && res.body) {
      this.multiRange = true;
      const parser = new MultipartRangeParser(boundary, (part) => {
        if (part.size !== undefined) this.size = part.size;
        this.bytesRead += part.bytes.length;
        this.remember(part.start, part.bytes);
        settle();
      });
      const body = res.body.getReader();
      for (;;) {
        const { done: ended, value } = await body.read();
        if (ended) break;
        parser.push(value);
      }
      parser.end();
      return;
    }
    const asked = ranges.reduce((n, r) => n + r.end - r.start, 0);
    const length = Number(res.headers.get('content-length') ?? NaN);
    const span = parseContentRange(res.headers.get('content-range'));
    // One range for all of them (a server may merge ranges): fine if it is not much more than asked.
    if (res.status === 206 && span && Number.isFinite(length) && length <= asked * 2 + 1024 * 1024) {
      const bytes = new Uint8Array(await res.arrayBuffer());
      if (span.size !== undefined) this.size = span.size;
      this.bytesRead += bytes.length;
      this.remember(span.start, bytes);
      settle();
      return;
    }
    await res.body?.cancel().catch(() => undefined);
    this.multiRange = false;
  }

  /** The requests on their way whose bytes include all of [start, end). */
  private inFlightWith(start: number, end: number) {
    return [...this.inFlight].filter((f) => start >= f.start && end <= f.end);
  }

  /** The bytes [start, end) if one cached range holds them all. */
  cached(start: number, end: number): Uint8Array | undefined {
    for (let i = this.lru.length - 1; i >= 0; i--) {
      const c = this.lru[i]!;
      if (start >= c.start && end <= c.start + c.bytes.length) {
        if (i !== this.lru.length - 1) this.lru.push(...this.lru.splice(i, 1));
        return c.bytes.subarray(start - c.start, end - c.start);
      }
    }
    return undefined;
  }

  clear() {
    this.lru.length = 0;
    this.lruBytes = 0;
  }

  private remember(start: number, bytes: Uint8Array) {
    if (bytes.length > this.lruMaxBytes) return;
    this.lru.push({ start, bytes });
    this.lruBytes += bytes.length;
    while (this.lruBytes > this.lruMaxBytes) this.lruBytes -= this.lru.shift()!.bytes.length;
  }
}
