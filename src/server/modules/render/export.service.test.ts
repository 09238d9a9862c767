import { describe, expect, it } from 'vitest';
import type { UserRow } from '../accounts/user.repository';
import type { MediaRow } from '../libraries/media.repository';
import { readEdl, readOtio } from '../../../../tests/fixtures/editorFormats';
import { ExportService } from './export.service';
import { FramingService } from './framing.service';

const user = { id: 'u1' } as UserRow;
const media = (id: string, filename: string, probe: Partial<NonNullable<MediaRow['probe']>> & { duration?: number }) =>
  ({
    id,
    filename,
    name: filename,
    width: 1920,
    height: 1080,
    duration: probe.duration ?? 600,
    probe: { frameRate: 25, maxFrameRate: 25, audioCodec: 'aac', ...probe },
  }) as unknown as MediaRow;

const ROWS = new Map([
  ['a', media('a', 'interview.mp4', { frameRate: 29.97, maxFrameRate: 29.97 })],
  ['b', media('b', 'interview.mp4', { frameRate: 29.2, maxFrameRate: 30, audioCodec: null })],
  ['c', media('c', 'long.mp4', { duration: 3600 })],
]);

function service() {
  return new ExportService({
    // The compilation's checks are RenderService's (render.service.test.ts): here every clip passes.
    checkClips: async (_u, body) => {
      const clips = body.clips.map((c) => ({ mediaId: c.mediaId, start: c.start, end: c.end, name: ROWS.get(c.mediaId)!.filename }));
      return { clips, fallback: clips.length === 1 ? clips[0]!.name.replace(/\.[^.]+$/, '') : 'clipseek-compilation' };
    },
    media: { byId: async (id) => ROWS.get(id) },
    transcript: async () => [],
    // Nothing found in any keyframe: the automatic window is centred.
    framing: new FramingService({
      owned: async () => {
        throw new Error('not asked');
      },
      subjects: async () => ({ shots: [], keyframes: [] }),
    }),
  });
}
const clip = (mediaId: string, start: number, end: number) => ({ libraryId: 'l1', mediaId, start, end });

describe('ExportService', () => {
  it('names two originals of one file name apart, and declares a variable rate as its nominal rate', async () => {
    const r = await service().export(user, { clips: [clip('a', 10, 12), clip('b', 1, 2)], format: 'otio', filename: 'cut' });
    expect(r).toMatchObject({ filename: 'cut.otio', contentType: 'application/json; charset=utf-8' });
    const otio = readOtio(r.text);
    expect(otio.tracks.Video!.map((c) => ('targetUrl' in c ? [c.targetUrl, c.rate, c.start, c.duration] : c))).toEqual([
      ['interview.mp4', 30000 / 1001, 300, 60],
      ['interview (2).mp4', 30, 30, 30],
    ]);
    // the second original has no sound: a gap in the audio track
    expect(otio.tracks.Audio![1]).toEqual({ gap: 30, rate: 30 });
  });

  it('names a single moment after its media; an EDL of it in drop-frame at 29.97', async () => {
    const r = await service().export(user, { clips: [clip('a', 60, 61)], format: 'edl' });
    expect(r.filename).toBe('interview.edl');
    const edl = readEdl(r.text, 30);
    // 60 s falls between frames 1798 (59.993 s) and 1799 (60.027 s): the clip starts at 1799, labelled
    // 00:00:59;29 (00:01:00;00 and ;01 are skipped); 61 s ends it before frame 1829 (00:01:01;01).
    expect(edl.events.map((e) => [e.srcIn, e.srcOut])).toEqual([['00:00:59;29', '00:01:01;01']]);
  });
});
