import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FINGERPRINT_SAMPLE_BYTES, fingerprintId } from '../../contract';
import { fingerprintOf, readFingerprintSample, type Sliceable } from './fingerprintSample';

/** What the server computes: SHA-256 over head bytes then tail bytes, with node's crypto. */
function nodeFingerprint(bytes: Buffer) {
  const n = FINGERPRINT_SAMPLE_BYTES;
  const head = bytes.subarray(0, Math.min(n, bytes.length));
  const tail = bytes.subarray(Math.max(0, bytes.length - n));
  return fingerprintId(bytes.length, createHash('sha256').update(head).update(tail).digest('hex'));
}

/** A Blob that records the ranges read and refuses to be read whole. */
function spyFile(bytes: Buffer) {
  const reads: Array<[number, number]> = [];
  const blob = new Blob([new Uint8Array(bytes)]);
  const file: Sliceable = {
    size: bytes.length,
    slice(start, end) {
      reads.push([start, end]);
      return blob.slice(start, end);
    },
  };
  return { file, reads };
}

describe('upload fingerprint', () => {
  it.each([1, 100, FINGERPRINT_SAMPLE_BYTES, 12_345, 2 * FINGERPRINT_SAMPLE_BYTES, 2 * FINGERPRINT_SAMPLE_BYTES + 1, 300_000])(
    'matches node crypto for %i bytes',
    async (size) => {
      const bytes = randomBytes(size);
      expect(await fingerprintOf(new Blob([new Uint8Array(bytes)]))).toBe(nodeFingerprint(bytes));
    },
  );

  it('reads only the first and last 8192 bytes of a large file', async () => {
    const bytes = randomBytes(1_000_000);
    const { file, reads } = spyFile(bytes);
    const sample = await readFingerprintSample(file);
    expect(reads).toEqual([
      [0, FINGERPRINT_SAMPLE_BYTES],
      [1_000_000 - FINGERPRINT_SAMPLE_BYTES, 1_000_000],
    ]);
    expect(sample.byteLength).toBe(2 * FINGERPRINT_SAMPLE_BYTES);
  });

  it('hashes overlapping head and tail of a small file twice, as the server does', async () => {
    const bytes = randomBytes(10_000);
    const sample = await readFingerprintSample(spyFile(bytes).file);
    expect(sample.byteLength).toBe(FINGERPRINT_SAMPLE_BYTES * 2);
    expect(Buffer.from(sample.subarray(0, FINGERPRINT_SAMPLE_BYTES))).toEqual(bytes.subarray(0, FINGERPRINT_SAMPLE_BYTES));
    expect(Buffer.from(sample.subarray(FINGERPRINT_SAMPLE_BYTES))).toEqual(bytes.subarray(10_000 - FINGERPRINT_SAMPLE_BYTES));
  });

  it('differs when only the size differs', async () => {
    const bytes = Buffer.alloc(50_000, 7);
    const longer = Buffer.alloc(50_001, 7);
    expect(await fingerprintOf(new Blob([new Uint8Array(bytes)]))).not.toBe(await fingerprintOf(new Blob([new Uint8Array(longer)])));
  });
});
