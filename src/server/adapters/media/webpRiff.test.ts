import { describe, expect, it } from 'vitest';
import { withRiffSize } from './ffprobe';

/** A RIFF/WEBP file of the given chunks, with the header's size as written (`size`) and trailing bytes. */
function webp(chunks: Array<[string, number]>, size: number, trailing: number[] = []) {
  const parts = chunks.map(([tag, n]) => {
    const c = Buffer.alloc(8 + n + (n & 1), 7);
    c.write(tag, 0, 'latin1');
    c.writeUInt32LE(n, 4);
    return c;
  });
  const head = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  head.writeUInt32LE(size, 4);
  return Buffer.concat([head, ...parts, Buffer.from(trailing)]);
}

describe('withRiffSize', () => {
  it('ends a piped ffmpeg WebP after its last chunk and writes its size in the header (ffmpeg leaves 0 and appends it)', () => {
    const piped = webp([['VP8 ', 101]], 0, [0x76, 0, 0, 0]);
    const fixed = withRiffSize(piped);
    expect(fixed.length).toBe(12 + 8 + 102);
    expect(fixed.readUInt32LE(4)).toBe(fixed.length - 8);
    expect(fixed.subarray(12).equals(piped.subarray(12, fixed.length))).toBe(true);
  });

  it('keeps a file with several chunks whole, and leaves what is not a WebP alone', () => {
    const extended = webp(
      [
        ['VP8X', 10],
        ['ALPH', 33],
        ['VP8 ', 64],
      ],
      0,
    );
    expect(withRiffSize(Buffer.from(extended)).length).toBe(extended.length);
    expect(withRiffSize(Buffer.from(extended)).readUInt32LE(4)).toBe(extended.length - 8);
    const png = Buffer.from('\x89PNG\r\n\x1a\n0123456789abcdef', 'latin1');
    expect(withRiffSize(Buffer.from(png)).equals(png)).toBe(true);
  });
});
