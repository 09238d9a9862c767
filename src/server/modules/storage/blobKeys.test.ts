import { describe, expect, it } from 'vitest';
import { blobKeys, parseDerivedKey } from './blobKeys';

describe('blobKeys', () => {
  const id = '0b6f3c2e-8a1d-4e0b-9a55-2f1f3c1d9e77';
  it('lays out what is made from a media under its derived/ prefix, times in milliseconds', () => {
    expect(blobKeys.keyframe(id, 12.3456)).toBe(`derived/${id}/kf/12346.jpg`);
    expect(blobKeys.still(id, 0.5)).toBe(`derived/${id}/thumb/500.webp`);
    expect(blobKeys.hlsPlaylist(id)).toBe(blobKeys.hls(id, 'playlist.m3u8'));
    for (const key of [blobKeys.poster(id), blobKeys.strip(id), blobKeys.picture(id), blobKeys.keyframe(id, 1)])
      expect(key.startsWith(blobKeys.derived(id))).toBe(true);
    expect(blobKeys.original('u', id, 'MOV')).toBe(`media/u/${id}/original.mov`);
  });

  it('reads a derived key back into its media and the rest, and nothing else', () => {
    expect(parseDerivedKey(blobKeys.keyframe(id, 2))).toEqual({ mediaId: id, rest: 'kf/2000.jpg' });
    expect(parseDerivedKey(blobKeys.hls(id, 'seg_00001.ts'))).toEqual({ mediaId: id, rest: 'hls/seg_00001.ts' });
    expect(parseDerivedKey(blobKeys.original('u', id, 'mp4'))).toBeNull();
    expect(parseDerivedKey('derived/')).toBeNull();
  });
});
