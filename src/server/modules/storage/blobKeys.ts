// The blob store's layout, in one place: every key the server writes or reads is made here.
//
//   media/<userId>/<mediaId>/original.<ext>   an upload's or an import's file, as it came
//   derived/<mediaId>/…                        made from a media: its rendition, keyframes, stills
//   renders/<userId>/<renderId>.<ext>          a render's output, until it expires
//   demo/<hash>/<filename>                     the demo library's samples, copied in at boot
//
// The sweep (services/blobSweep.service.ts) keeps a key while a row names it, or for `derived/`
// while its media exists.

/** The top-level prefixes the sweep walks. */
export const BLOB_PREFIXES = { media: 'media/', derived: 'derived/', renders: 'renders/', demo: 'demo/' } as const;

/** Milliseconds in a key: a time in seconds, to the millisecond. */
const ms = (t: number) => Math.round(t * 1000);

export const blobKeys = {
  /** The file as uploaded or imported; `ext` lower-cased, without its dot. */
  original: (userId: string, mediaId: string, ext: string) => `media/${userId}/${mediaId}/original.${ext.toLowerCase()}`,
  /** Everything made from a media (deleted with it). */
  derived: (mediaId: string) => `derived/${mediaId}/`,
  /** A file of the media's HLS rendition (`playlist.m3u8` or a segment). */
  hls: (mediaId: string, file: string) => `derived/${mediaId}/hls/${file}`,
  hlsPlaylist: (mediaId: string) => `derived/${mediaId}/hls/playlist.m3u8`,
  /** A keyframe ingest indexed, at `t` seconds. */
  keyframe: (mediaId: string, t: number) => `derived/${mediaId}/kf/${ms(t)}.jpg`,
  /** The media's poster (its representative frame). */
  poster: (mediaId: string) => `derived/${mediaId}/poster.webp`,
  /** An on-demand still at `t` seconds (a search card's frame). */
  still: (mediaId: string, t: number) => `derived/${mediaId}/thumb/${ms(t)}.webp`,
  /** The timeline's thumbnail track: the keyframes as a small all-IDR H.264 MP4. */
  thumbnailTrack: (mediaId: string) => `derived/${mediaId}/thumbnails.mp4`,
  /** The timeline's thumbnail strip. */
  strip: (mediaId: string) => `derived/${mediaId}/strip.webp`,
  /** A file ingest's chunks share while they run (the audio speech chunks decode), removed at the merge. */
  ingestWork: (mediaId: string, file: string) => `derived/${mediaId}/work/${file}`,
  /** A photo as it is looked at. */
  picture: (mediaId: string) => `derived/${mediaId}/picture.webp`,
  /** A render's output. */
  render: (userId: string, renderId: string, ext: string) => `renders/${userId}/${renderId}.${ext}`,
  /** A demo sample, by the hash of its bytes. */
  demo: (hash: string, filename: string) => `demo/${hash}/${filename}`,
};

/** `derived/<mediaId>/<rest>` → its media id and rest; null for a key of another shape. */
export function parseDerivedKey(key: string): { mediaId: string; rest: string } | null {
  if (!key.startsWith(BLOB_PREFIXES.derived)) return null;
  const [, mediaId = '', ...rest] = key.split('/');
  return mediaId ? { mediaId, rest: rest.join('/') } : null;
}
