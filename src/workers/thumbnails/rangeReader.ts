import { coalesceRanges, type ByteRange } from './sampleTable';

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
    for (const f of this.inFlight) {
      if (start >= f.start && end <= f.end) {
        await f.done.catch(() => undefined);
        const after = this.cached(start, end);
        if (after) return after;
      }
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
    const total = /\/(\d+)\s*$/.exec(res.headers.get('content-range') ?? '');
    if (total) this.size = Number(total[1]);
    const bytes = new Uint8Array(await res.arrayBuffer());
    this.bytesRead += bytes.length;
    this.remember(start, bytes);
    return bytes;
  }

  /**
   * Fetches `ranges` (coalesced: neighbouring samples share a request) at most `parallel` at a
   * time into the LRU; `read` of any part of them then waits for the fetch instead of repeating it.
   */
  async prefetch(ranges: readonly ByteRange[], maxGap: number, parallel: number, signal?: AbortSignal): Promise<void> {
    const missing = coalesceRanges(ranges, maxGap, 16 * 1024 * 1024).filter((r) => !this.cached(r.start, r.end));
    // Register every range as in flight at once, so readers wait for it even before its lane starts.
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
    let next = 0;
    const lane = async () => {
      while (next < missing.length) {
        const i = next++;
        const r = missing[i]!;
        try {
          this.inFlight.delete(entries[i]!);
          await this.read(r.start, r.end, signal);
        } finally {
          gates[i]!.open();
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(parallel, missing.length) }, lane));
    } finally {
      // After a failure nobody may wait forever: waiting readers fetch what is still missing themselves.
      for (const g of gates) g.open();
      for (const e of entries) this.inFlight.delete(e);
    }
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
