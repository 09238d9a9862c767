import { createHash } from 'node:crypto';
import { fingerprintId, fingerprintRanges } from '../contract';

/** The upload fingerprint (see contract) of bytes held in memory. */
export function fingerprintOfBytes(bytes: Uint8Array): string {
  const { head, tail } = fingerprintRanges(bytes.length);
  return fingerprintId(
    bytes.length,
    createHash('sha256')
      .update(bytes.subarray(...head))
      .update(bytes.subarray(...tail))
      .digest('hex'),
  );
}
