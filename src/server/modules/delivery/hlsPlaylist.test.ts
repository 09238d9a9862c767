import { describe, expect, it } from 'vitest';
import { parsePlaylist, segmentsCovering, writePlaylist } from './hlsPlaylist';

const PLAYLIST = `#EXTM3U
#EXT-X-VERSION:3
#EXT-X-TARGETDURATION:2
#EXT-X-MEDIA-SEQUENCE:0
#EXT-X-PLAYLIST-TYPE:VOD
#EXTINF:2.000000,
seg_00000.ts
#EXTINF:2.000000,
seg_00001.ts
#EXTINF:1.500000,
seg_00002.ts
#EXT-X-ENDLIST
`;

describe('HLS playlists', () => {
  it('reads each segment with where it starts', () => {
    expect(parsePlaylist(PLAYLIST)).toEqual([
      { uri: 'seg_00000.ts', start: 0, duration: 2 },
      { uri: 'seg_00001.ts', start: 2, duration: 2 },
      { uri: 'seg_00002.ts', start: 4, duration: 1.5 },
    ]);
  });

  it('chooses the segments of a range, with a margin at the boundaries', () => {
    const s = parsePlaylist(PLAYLIST);
    const uris = (a: number, b: number) => segmentsCovering(s, a, b).map((x) => x.uri);
    expect(uris(0, 1)).toEqual(['seg_00000.ts']);
    expect(uris(2.5, 3)).toEqual(['seg_00001.ts']);
    // A range starting on a boundary also takes the segment before (rounding of #EXTINF).
    expect(uris(2, 3)).toEqual(['seg_00000.ts', 'seg_00001.ts']);
    expect(uris(3, 5.5)).toEqual(['seg_00001.ts', 'seg_00002.ts']);
    expect(uris(0, 5.5)).toHaveLength(3);
    // Past the end (a last frame's slack) still reads the last segment.
    expect(uris(5.6, 5.7)).toEqual(['seg_00002.ts']);
  });

  it('writes a playlist ffmpeg and players read back the same', () => {
    const s = parsePlaylist(PLAYLIST).slice(1);
    const text = writePlaylist(s.map((x) => ({ ...x, uri: `/data/${x.uri}` })));
    expect(text).toContain('#EXT-X-ENDLIST');
    expect(parsePlaylist(text).map((x) => [x.uri, x.duration])).toEqual([
      ['/data/seg_00001.ts', 2],
      ['/data/seg_00002.ts', 1.5],
    ]);
  });
});
