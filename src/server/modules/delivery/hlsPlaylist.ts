/**
 * The preview rendition's playlists as data: the segments our packager writes (relative names, each
 * after its #EXTINF), where each starts, and a playlist of some of them. Renders read only the
 * segments around a range (render.service.ts), so ffmpeg's HLS demuxer never has to seek: its seek
 * misses the first segment of a playlist whose timestamps start at ~1.4 s, as MPEG-TS's do.
 */
export interface HlsSegment {
  /** As written in the playlist (our packager's relative name). */
  uri: string;
  /** Seconds from the rendition's start, the sum of the #EXTINF durations before it. */
  start: number;
  duration: number;
}

/** The media segments of a VOD playlist, in order. */
export function parsePlaylist(text: string): HlsSegment[] {
  const segments: HlsSegment[] = [];
  let duration: number | null = null;
  let at = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const inf = /^#EXTINF:([\d.]+)/.exec(line);
    if (inf) duration = Number(inf[1]);
    else if (line && !line.startsWith('#') && duration !== null) {
      segments.push({ uri: line, start: at, duration });
      at += duration;
      duration = null;
    }
  }
  return segments;
}

/**
 * The segments a range [start, end) needs, with `margin` seconds to spare on both sides: a segment's
 * #EXTINF start is its first keyframe's time rounded to the microsecond, and a frame exactly on a
 * boundary must not be lost to that rounding.
 */
export function segmentsCovering(segments: readonly HlsSegment[], start: number, end: number, margin = 0.25): HlsSegment[] {
  const chosen = segments.filter((s) => s.start + s.duration > start - margin && s.start < end + margin);
  return chosen.length ? chosen : segments.slice(-1);
}

/** A VOD playlist of `segments` (their `uri`s as given: paths or URLs). */
export function writePlaylist(segments: ReadonlyArray<{ uri: string; duration: number }>): string {
  const target = Math.max(1, ...segments.map((s) => Math.ceil(s.duration)));
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${target}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    ...segments.flatMap((s) => [`#EXTINF:${s.duration.toFixed(6)},`, s.uri]),
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}
