/**
 * Reads a `multipart/byteranges` response body (RFC 9110 §14.6) as it streams in, handing over
 * each part as soon as its last byte arrives, so a decoder can start on the first keyframe while
 * the rest of the view's keyframes are still on the wire.
 */

export class MultipartFormatError extends Error {
  readonly code = 'multipart_format';
  constructor(message: string) {
    super(message);
    this.name = 'MultipartFormatError';
  }
}

/** The boundary of a `multipart/byteranges` content type, or null for any other type. */
export function byterangesBoundary(contentType: string | null | undefined): string | null {
  if (!contentType || !/^\s*multipart\/byteranges\s*;/i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** A `Content-Range: bytes first-last/size` value (size `*` when unknown), or null for anything else. */
export function parseContentRange(value: string | null | undefined): { start: number; last: number; size: number | undefined } | null {
  const m = value ? /^\s*bytes\s+(\d+)-(\d+)\/(\d+|\*)\s*$/i.exec(value) : null;
  return m ? { start: Number(m[1]), last: Number(m[2]), size: m[3] === '*' ? undefined : Number(m[3]) } : null;
}

export interface RangePart {
  /** Offset of the part's first byte in the file. */
  start: number;
  bytes: Uint8Array<ArrayBuffer>;
  /** The file's size, when the part's Content-Range gave it. */
  size: number | undefined;
}

/** Longest run of boundary lines and part headers we wait through before calling the body malformed. */
const MAX_HEAD_BYTES = 16 * 1024;
const latin1 = new TextDecoder('latin1');

export class MultipartRangeParser {
  private readonly delimiter: string;
  /** Bytes outside any part body not yet parsed (a boundary line and headers). */
  private head = new Uint8Array(0);
  private part: { start: number; size: number | undefined; bytes: Uint8Array<ArrayBuffer>; filled: number } | null = null;
  private finished = false;

  constructor(
    boundary: string,
    private readonly onPart: (part: RangePart) => void,
  ) {
    this.delimiter = `--${boundary}`;
  }

  /** True once the closing boundary has been read. */
  get done() {
    return this.finished;
  }

  push(chunk: Uint8Array): void {
    let data = chunk;
    while (data.length > 0 && !this.finished) {
      const part = this.part;
      if (part) {
        const n = Math.min(data.length, part.bytes.length - part.filled);
        part.bytes.set(data.subarray(0, n), part.filled);
        part.filled += n;
        data = data.subarray(n);
        if (part.filled === part.bytes.length) {
          this.part = null;
          this.onPart({ start: part.start, bytes: part.bytes, size: part.size });
        }
        continue;
      }
      const joined = new Uint8Array(this.head.length + data.length);
      joined.set(this.head, 0);
      joined.set(data, this.head.length);
      const used = this.readHead(joined);
      if (used < 0) {
        if (joined.length > MAX_HEAD_BYTES) throw new MultipartFormatError('No part header where one was expected');
        this.head = joined;
        return;
      }
      this.head = new Uint8Array(0);
      data = joined.subarray(used);
    }
  }

  /** Call when the body has ended: throws if it ended inside a part or before the closing boundary. */
  end(): void {
    if (!this.finished)
      throw new MultipartFormatError(this.part ? 'The response ended inside a part' : 'The response ended before its closing boundary');
  }

  /**
   * Parses a delimiter line and the part headers after it from `bytes`; returns the bytes used, or -1
   * when more are needed. Sets up the next part, or finishes at the closing delimiter.
   */
  private readHead(bytes: Uint8Array): number {
    const text = latin1.decode(bytes.subarray(0, Math.min(bytes.length, MAX_HEAD_BYTES + this.delimiter.length)));
    const at = text.indexOf(this.delimiter);
    if (at < 0) return -1;
    const after = at + this.delimiter.length;
    if (text.length < after + 2) return -1;
    if (text.startsWith('--', after)) {
      this.finished = true;
      return bytes.length;
    }
    const headersEnd = text.indexOf('\r\n\r\n', after);
    if (headersEnd < 0) return -1;
    const headers = text.slice(after, headersEnd);
    const range = parseContentRange(/^content-range:(.*)$/im.exec(headers)?.[1]);
    if (!range) throw new MultipartFormatError('A part has no byte Content-Range');
    const { start, last, size } = range;
    if (last < start) throw new MultipartFormatError(`A part has an empty range ${start}-${last}`);
    this.part = { start, size, bytes: new Uint8Array(last - start + 1), filled: 0 };
    return headersEnd + 4;
  }
}
