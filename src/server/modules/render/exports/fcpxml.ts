import { convertFrames, isDropFrame, sourcesOf, stemOf, type ExportSource, type ExportTimeline, type Rate } from './timeline';
import { el, xmlDocument } from './xml';

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/** FCPXML's rational time of `frames` at `rate`: N/Ds reduced (1001/30000s a frame at 29.97), '0s', or whole seconds as 'Ns'. */
export function rationalTime(frames: number, rate: Rate): string {
  if (frames === 0) return '0s';
  const n = frames * rate.den;
  const g = gcd(n, rate.num);
  const [num, den] = [n / g, rate.num / g];
  return den === 1 ? `${num}s` : `${num}/${den}s`;
}

/** A source's file name as the relative URL FCPXML's `src` is (resolved beside the project file). */
const relativeUrl = (fileName: string) => encodeURIComponent(fileName);

const tcFormat = (r: Rate) => (isDropFrame(r) ? 'DF' : 'NDF');

/**
 * FCPXML 1.9 (Final Cut Pro 10.5+, DaVinci Resolve and Premiere's importers): a format per frame
 * rate and size, an asset per original with a media-rep whose `src` is its file name, and a project
 * whose sequence (at the first clip's format) holds the clips in its spine one after another. Every
 * time is a rational at a frame boundary: `start` at the asset's own frame duration, `offset` and
 * `duration` at the sequence's.
 */
export function writeFcpxml(t: ExportTimeline): string {
  const sources = sourcesOf(t);
  const formatKey = (s: ExportSource) => `${s.rate.num}/${s.rate.den}@${s.width}x${s.height}`;
  const formats = new Map<string, { id: string; s: ExportSource }>();
  for (const s of sources) if (!formats.has(formatKey(s))) formats.set(formatKey(s), { id: `r${formats.size + 1}`, s });
  const assetId = new Map(sources.map((s, i) => [s.mediaId, `r${formats.size + 1 + i}`]));
  const seqSource = t.clips[0]!.source;
  const seq = seqSource.rate;
  let offset = 0;
  const spine = t.clips.map((c) => {
    const length = Math.max(1, convertFrames(c.out - c.in, c.source.rate, seq));
    const clip = el('asset-clip', {
      ref: assetId.get(c.source.mediaId),
      name: stemOf(c.source.fileName),
      offset: rationalTime(offset, seq),
      start: rationalTime(c.in, c.source.rate),
      duration: rationalTime(length, seq),
      format: formats.get(formatKey(c.source))!.id,
      tcFormat: tcFormat(c.source.rate),
    });
    offset += length;
    return clip;
  });
  const resources = [
    ...[...formats.values()].map(({ id, s }) =>
      el('format', { id, frameDuration: rationalTime(1, s.rate), width: s.width, height: s.height }),
    ),
    ...sources.map((s) =>
      el(
        'asset',
        {
          id: assetId.get(s.mediaId),
          name: stemOf(s.fileName),
          start: '0s',
          duration: rationalTime(s.frames, s.rate),
          hasVideo: 1,
          format: formats.get(formatKey(s))!.id,
          videoSources: 1,
          hasAudio: s.hasAudio ? 1 : undefined,
          audioSources: s.hasAudio ? 1 : undefined,
          audioChannels: s.hasAudio ? 2 : undefined,
          audioRate: s.hasAudio ? 48000 : undefined,
        },
        [el('media-rep', { kind: 'original-media', src: relativeUrl(s.fileName) })],
      ),
    ),
  ];
  const sequence = el(
    'sequence',
    {
      format: formats.get(formatKey(seqSource))!.id,
      duration: rationalTime(offset, seq),
      tcStart: '0s',
      tcFormat: tcFormat(seq),
      audioLayout: 'stereo',
      audioRate: '48k',
    },
    [el('spine', {}, spine)],
  );
  return xmlDocument(
    el('fcpxml', { version: '1.9' }, [
      el('resources', {}, resources),
      el('library', {}, [el('event', { name: t.title }, [el('project', { name: t.title }, [sequence])])]),
    ]),
    'fcpxml',
  );
}
