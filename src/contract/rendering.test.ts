import { describe, expect, it } from 'vitest';
import { exportFileNames, sanitiseFilename, srtTime, toSrt } from './rendering';

describe('srt', () => {
  it('writes HH:MM:SS,mmm time codes', () => {
    expect(srtTime(0)).toBe('00:00:00,000');
    expect(srtTime(3723.4567)).toBe('01:02:03,457');
  });

  it('numbers cues from 1 and skips segments without text', () => {
    const segs = [
      { start: 4, end: 5, text: 'second' },
      { start: 1, end: 2, text: 'first' },
      { start: 2, end: 3, text: '  ' },
    ];
    expect(toSrt(segs)).toBe('1\n00:00:01,000 --> 00:00:02,000\nfirst\n\n2\n00:00:04,000 --> 00:00:05,000\nsecond\n');
  });

  it("keeps a moment's overlapping segments, clipped to it and relative to its start", () => {
    const segs = [
      { start: 0, end: 1, text: 'before' },
      { start: 9, end: 11, text: 'across' },
      { start: 12, end: 13, text: 'inside' },
      { start: 20, end: 21, text: 'after' },
    ];
    expect(toSrt(segs, { start: 10, end: 15 })).toBe(
      '1\n00:00:00,000 --> 00:00:01,000\nacross\n\n2\n00:00:02,000 --> 00:00:03,000\ninside\n',
    );
  });
});

describe('sanitiseFilename', () => {
  it('removes separators, quotes and control characters and sets the extension once', () => {
    expect(sanitiseFilename('../a/b"c\n.MP4', 'x', 'mp4')).toBe('_a_b_c_.mp4');
    expect(sanitiseFilename('  ', 'Library_clip', 'gif')).toBe('Library_clip.gif');
    expect(sanitiseFilename(undefined, 'talk', 'srt')).toBe('talk.srt');
  });
});

describe('exportFileNames', () => {
  it('names each original once, as the originals download saves it, unique across the export', () => {
    const names = exportFileNames([
      { mediaId: 'a', filename: 'talk.mp4' },
      { mediaId: 'b', filename: 'Talk.MP4' },
      { mediaId: 'a', filename: 'talk.mp4' },
      { mediaId: 'c', filename: 'x/y"z.webm' },
      { mediaId: 'd', filename: 'talk.mp4' },
      { mediaId: 'e', filename: 'noext' },
    ]);
    expect([...names.entries()]).toEqual([
      ['a', 'talk.mp4'],
      ['b', 'Talk (2).MP4'],
      ['c', 'x_y_z.webm'],
      ['d', 'talk (3).mp4'],
      ['e', 'noext'],
    ]);
  });
});
