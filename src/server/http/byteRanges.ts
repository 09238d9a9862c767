import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import parseRange from 'range-parser';

/**
 * HTTP byte ranges (RFC 9110 §14) for media originals: one range answers 206 with the bytes, several
 * answer 206 `multipart/byteranges`. The browser's thumbnail worker asks for a whole view's keyframes
 * in one request this way: each request costs Chromium several milliseconds of CPU, more than a
 * 100 KB keyframe takes to transfer.
 */

export interface ByteRange {
  start: number;
  /** Exclusive. */
  end: number;
}

/** Ranges one request may ask for; more are refused with 416 rather than served whole. */
export const MAX_RANGES = 64;

/**
 * The ranges of a `Range` header for a file of `size` bytes, in the order asked (read by
 * range-parser): null when there is no header, it is not a byte-range set we read, or its ranges
 * overlap (the whole file is served), 'unsatisfiable' when none of its ranges falls inside the file
 * or there are more than MAX_RANGES.
 */
export function parseRanges(header: string | undefined, size: number): ByteRange[] | null | 'unsatisfiable' {
  if (!header) return null;
  if (header.split(',').length > MAX_RANGES) return 'unsatisfiable';
  const parsed = parseRange(size, header);
  // -1 is both "past the end" and "first byte after the last" (bytes=9-0); only the first holds
  // for a file of any size. An invalid range voids the header (RFC 9110 §14.2 lets us ignore it).
  // A suffix of zero bytes (bytes=-0) is well formed and asks for nothing: unsatisfiable (§14.1.2).
  if (parsed === -1) return parseRange(Number.MAX_SAFE_INTEGER, header) !== -1 || onlyEmptySuffixes(header) ? 'unsatisfiable' : null;
  if (parsed === -2 || parsed.type.toLowerCase() !== 'bytes') return null;
  const ranges = parsed.map(({ start, end }) => ({ start, end: end + 1 }));
  // Overlapping ranges would let a small request ask for the same bytes many times over (RFC 9110
  // §14.2 lets a server ignore such a header): the whole file is served instead, once.
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  return sorted.some((r, i) => i > 0 && r.start < sorted[i - 1]!.end) ? null : ranges;
}

/** Whether every range of a `bytes=` header is a suffix of zero bytes (`-0`). */
const onlyEmptySuffixes = (header: string) =>
  /^bytes=/i.test(header) &&
  header
    .slice(header.indexOf('=') + 1)
    .split(',')
    .every((r) => /^\s*-0+\s*$/.test(r));

export interface RangeResponse {
  status: 200 | 206 | 416;
  headers: Record<string, string | number>;
  /** Null for 416 and for HEAD requests. */
  body: Readable | null;
}

/**
 * The response for a `Range` header over a file of `size` bytes whose bytes `open` streams
 * ([start, end) or all). Always advertises `accept-ranges`; the caller adds caching headers.
 */
export function rangeResponse(
  header: string | undefined,
  size: number,
  contentType: string,
  open: (range: ByteRange) => Promise<Readable> | Readable,
  head = false,
): RangeResponse {
  const ranges = parseRanges(header, size);
  const base = { 'accept-ranges': 'bytes' };
  if (ranges === 'unsatisfiable') return { status: 416, headers: { ...base, 'content-range': `bytes */${size}` }, body: null };
  const stream = (parts: (() => Promise<Readable> | Readable | Buffer)[]) =>
    head
      ? null
      : Readable.from(
          (async function* () {
            for (const part of parts) {
              const p = await part();
              if (Buffer.isBuffer(p)) yield p;
              else for await (const chunk of p) yield chunk as Buffer;
            }
          })(),
        );
  if (!ranges) {
    return {
      status: 200,
      headers: { ...base, 'content-type': contentType, 'content-length': size },
      body: stream([() => open({ start: 0, end: size })]),
    };
  }
  if (ranges.length === 1) {
    const [r] = ranges as [ByteRange];
    return {
      status: 206,
      headers: {
        ...base,
        'content-type': contentType,
        'content-range': `bytes ${r.start}-${r.end - 1}/${size}`,
        'content-length': r.end - r.start,
      },
      body: stream([() => open(r)]),
    };
  }
  const boundary = `clipseek-${randomBytes(12).toString('hex')}`;
  const heads = ranges.map((r, i) =>
    Buffer.from(
      `${i ? '\r\n' : ''}--${boundary}\r\ncontent-type: ${contentType}\r\ncontent-range: bytes ${r.start}-${r.end - 1}/${size}\r\n\r\n`,
      'latin1',
    ),
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');
  const length = heads.reduce((n, h, i) => n + h.length + ranges[i]!.end - ranges[i]!.start, tail.length);
  return {
    status: 206,
    headers: { ...base, 'content-type': `multipart/byteranges; boundary=${boundary}`, 'content-length': length },
    body: stream([...ranges.flatMap((r, i) => [() => heads[i]!, () => open(r)]), () => tail]),
  };
}
