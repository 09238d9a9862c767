import { fps, type ExportClip, type ExportTimeline, type Rate } from './timeline';

const rational = (value: number, rate: Rate) => ({ OTIO_SCHEMA: 'RationalTime.1', rate: fps(rate), value });
const range = (start: number, duration: number, rate: Rate) => ({
  OTIO_SCHEMA: 'TimeRange.1',
  start_time: rational(start, rate),
  duration: rational(duration, rate),
});
/** The fields every OTIO item carries. */
const item = (name: string) => ({ name, metadata: {}, effects: [], markers: [], enabled: true });

function clip(c: ExportClip) {
  const r = c.source.rate;
  return {
    OTIO_SCHEMA: 'Clip.2',
    ...item(c.source.fileName.replace(/\.[^.]+$/, '')),
    source_range: range(c.in, c.out - c.in, r),
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: 'ExternalReference.1',
        name: c.source.fileName,
        metadata: {},
        available_range: range(0, c.source.frames, r),
        available_image_bounds: null,
        target_url: c.source.fileName,
      },
    },
    active_media_reference_key: 'DEFAULT_MEDIA',
  };
}

/**
 * OpenTimelineIO JSON (.otio): a Timeline.1 whose Stack.1 holds a Video track of the clips and an
 * Audio track of the same clips (a Gap.1 where an original has no sound), each Clip.2 referencing
 * its original by file name (ExternalReference.1 `target_url`, relative to the project) with its
 * source range in frames at the original's own rate.
 */
export function writeOtio(t: ExportTimeline): string {
  const track = (kind: 'Video' | 'Audio', name: string) => ({
    OTIO_SCHEMA: 'Track.1',
    ...item(name),
    source_range: null,
    kind,
    children: t.clips.map((c) =>
      kind === 'Audio' && !c.source.hasAudio
        ? { OTIO_SCHEMA: 'Gap.1', ...item(''), source_range: range(0, c.out - c.in, c.source.rate) }
        : clip(c),
    ),
  });
  const timeline = {
    OTIO_SCHEMA: 'Timeline.1',
    name: t.title,
    metadata: {},
    global_start_time: null,
    tracks: {
      OTIO_SCHEMA: 'Stack.1',
      ...item('tracks'),
      source_range: null,
      children: [track('Video', 'V1'), ...(t.clips.some((c) => c.source.hasAudio) ? [track('Audio', 'A1')] : [])],
    },
  };
  return `${JSON.stringify(timeline, null, 2)}\n`;
}
