/**
 * Top-level MP4/MOV box scanning over byte ranges. Finding `moov` must not read the file: a camera
 * or phone file usually keeps it after a multi-gigabyte `mdat` (no faststart), so we hop from box
 * header to box header with small ranges and read only `ftyp` and `moov` whole.
 */

export interface BoxHeader {
  type: string;
  /** Absolute file offset of the box. */
  start: number;
  /** Whole box size including its header (a size-0 box runs to the end of the file). */
  size: number;
  headerSize: number;
}

/** Reads bytes [start, end) of the file. */
export type ReadRange = (start: number, end: number) => Promise<Uint8Array>;

export class Mp4FormatError extends Error {
  readonly code = 'mp4_format';
  constructor(message: string) {
    super(message);
    this.name = 'Mp4FormatError';
  }
}

const isFourCC = (bytes: Uint8Array, at: number) => {
  for (let i = at; i < at + 4; i++) {
    const c = bytes[i]!;
    // Box types are printable ASCII ('©xyz' style types only occur inside udta, never at top level).
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
};

/**
 * The header of the box at `at` in `bytes` (which start at file offset `bytesStart`), or null when
 * `bytes` end before the header does. Throws on bytes that are not a box header.
 */
export function parseBoxHeader(bytes: Uint8Array, at: number, bytesStart: number, fileSize: number): BoxHeader | null {
  if (at + 8 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size32 = view.getUint32(at);
  if (!isFourCC(bytes, at + 4)) throw new Mp4FormatError(`Not an MP4 box at offset ${bytesStart + at}`);
  const type = String.fromCharCode(bytes[at + 4]!, bytes[at + 5]!, bytes[at + 6]!, bytes[at + 7]!);
  const start = bytesStart + at;
  let size = size32;
  let headerSize = 8;
  if (size32 === 1) {
    if (at + 16 > bytes.length) return null;
    size = view.getUint32(at + 8) * 2 ** 32 + view.getUint32(at + 12);
    headerSize = 16;
  } else if (size32 === 0) size = fileSize - start;
  if (size < headerSize) throw new Mp4FormatError(`Invalid size ${size} of box '${type}' at offset ${start}`);
  return { type, start, size, headerSize };
}

/** Every complete top-level header found in `bytes` from offset `bytesStart`, and where the next box starts. */
export function scanBoxHeaders(bytes: Uint8Array, bytesStart: number, fileSize: number): { boxes: BoxHeader[]; next: number } {
  const boxes: BoxHeader[] = [];
  let pos = bytesStart;
  while (pos < fileSize) {
    const header = parseBoxHeader(bytes, pos - bytesStart, bytesStart, fileSize);
    if (!header) break;
    boxes.push(header);
    pos = header.start + header.size;
    if (pos - bytesStart >= bytes.length) break;
  }
  return { boxes, next: pos };
}

export interface MovieBoxes {
  ftyp: Uint8Array | null;
  moov: Uint8Array;
  /** Byte ranges read to find them. */
  reads: number;
}

export const HEAD_BYTES = 64 * 1024;
/** What is read at each top-level box that lies beyond what was read so far: enough for a header. */
export const PROBE_BYTES = 4 * 1024;
/**
 * When no more than this is left of the file at a box beyond what was read, all of it is read at
 * once: it is a moov written at the end (and perhaps a small box after it), so one request instead
 * of a header probe and then the box.
 */
export const TAIL_BYTES = 4 * 1024 * 1024;

/**
 * Finds and reads `ftyp` and `moov`. The first `head` read (already done to learn the file size)
 * usually holds both for faststart files; otherwise box headers are followed with PROBE_BYTES reads.
 */
export async function readMovieBoxes(read: ReadRange, head: Uint8Array, fileSize: number): Promise<MovieBoxes> {
  let buf = head;
  let bufStart = 0;
  let pos = 0;
  let reads = 0;
  let ftyp: Uint8Array | null = null;
  const slice = async (box: BoxHeader) => {
    const end = box.start + box.size;
    if (box.start >= bufStart && end <= bufStart + buf.length) return buf.subarray(box.start - bufStart, end - bufStart);
    reads++;
    const bytes = await read(box.start, end);
    if (bytes.length !== box.size) throw new Mp4FormatError(`Short read of '${box.type}'`);
    return bytes;
  };
  for (let hops = 0; pos < fileSize; hops++) {
    if (hops > 10_000) throw new Mp4FormatError('Too many top-level boxes');
    let header = pos >= bufStart ? parseBoxHeader(buf, pos - bufStart, bufStart, fileSize) : null;
    if (!header) {
      reads++;
      buf = await read(pos, fileSize - pos <= TAIL_BYTES ? fileSize : Math.min(fileSize, pos + PROBE_BYTES));
      bufStart = pos;
      header = parseBoxHeader(buf, 0, bufStart, fileSize);
      if (!header) throw new Mp4FormatError(`Truncated box header at offset ${pos}`);
    }
    if (header.start + header.size > fileSize) {
      // A truncated last box (an interrupted recording) cannot be the moov we need.
      if (header.type === 'moov') throw new Mp4FormatError('The moov box is truncated');
      break;
    }
    if (header.type === 'ftyp') ftyp = await slice(header);
    else if (header.type === 'moov') return { ftyp, moov: await slice(header), reads };
    pos = header.start + header.size;
  }
  throw new Mp4FormatError('No moov box: not an MP4/MOV file, or a fragmented one');
}

/** A minimal `ftyp` for files without one (old QuickTime): mp4box's info needs a brand. */
export function syntheticFtyp(): Uint8Array {
  const bytes = new Uint8Array(16);
  new DataView(bytes.buffer).setUint32(0, 16);
  bytes.set([0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d], 4); // 'ftyp' 'isom'
  return bytes;
}
