import { fingerprintId, fingerprintRanges } from '../../contract';

/** What the fingerprint needs of a file: its size and byte slices (a File or Blob). */
export interface Sliceable {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

/**
 * Head bytes followed by tail bytes, as the contract's ranges give them (for files under 16 KiB
 * they overlap, and the overlap is hashed twice on both sides). Only the two slices are read, so
 * a multi-gigabyte file costs two small reads.
 */
export async function readFingerprintSample(file: Sliceable): Promise<Uint8Array<ArrayBuffer>> {
  const { head, tail } = fingerprintRanges(file.size);
  const [a, b] = await Promise.all([file.slice(head[0], head[1]).arrayBuffer(), file.slice(tail[0], tail[1]).arrayBuffer()]);
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(new Uint8Array(a), 0);
  out.set(new Uint8Array(b), a.byteLength);
  return out;
}

const toHex = (buffer: ArrayBuffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');

/** The upload fingerprint of a file, hashed with Web Crypto (in the worker, or wherever it runs). */
export async function fingerprintOf(file: Sliceable, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<string> {
  const sample = await readFingerprintSample(file);
  return fingerprintId(file.size, toHex(await subtle.digest('SHA-256', sample)));
}
