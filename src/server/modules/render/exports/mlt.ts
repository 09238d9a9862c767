import { convertFrames, fps, frameAt, sourcesOf, stemOf, type ExportTimeline, type Rate } from './timeline';
import { el, text, xmlDocument, type XmlNode } from './xml';

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
const prop = (name: string, value: string | number) => el('property', { name }, [text(value)]);

/**
 * MLT XML (the project format of Shotcut and the engine of Kdenlive), laid out as Shotcut writes a
 * timeline so it opens as one: a profile of the first clip's size and rate, a producer per
 * original (`resource` its file name, resolved beside the project), a black background track and
 * the video track `playlist0` of the clips, in a tractor marked `shotcut`. In and out points are
 * frames at the profile's rate, `out` inclusive (MLT's convention).
 */
export function writeMlt(t: ExportTimeline): string {
  const first = t.clips[0]!.source;
  const rate: Rate = first.rate;
  const { width, height } = first;
  const g = gcd(width, height);
  const sources = sourcesOf(t);
  const producerId = new Map(sources.map((s, i) => [s.mediaId, `producer${i}`]));
  // Each clip's frames at the profile's rate: its start in seconds of the source, its length converted.
  const entries = t.clips.map((c) => {
    const from = frameAt(c.in / fps(c.source.rate), rate);
    const length = Math.max(1, convertFrames(c.out - c.in, c.source.rate, rate));
    return { c, from, to: from + length - 1 };
  });
  const total = entries.reduce((n, e) => n + e.to - e.from + 1, 0);
  const producers = sources.map((s) => {
    const length = Math.max(1, convertFrames(s.frames, s.rate, rate));
    return el('producer', { id: producerId.get(s.mediaId), in: 0, out: length - 1 }, [
      prop('length', length),
      prop('eof', 'pause'),
      prop('resource', s.fileName),
      prop('mlt_service', 'avformat'),
      prop('seekable', 1),
      prop('shotcut:caption', stemOf(s.fileName)),
      prop('kdenlive:clipname', stemOf(s.fileName)),
    ]);
  });
  const children: XmlNode[] = [
    el('profile', {
      description: `${width}x${height} ${Math.round(fps(rate) * 1000) / 1000} fps`,
      width,
      height,
      progressive: 1,
      sample_aspect_num: 1,
      sample_aspect_den: 1,
      display_aspect_num: width / g,
      display_aspect_den: height / g,
      frame_rate_num: rate.num,
      frame_rate_den: rate.den,
      colorspace: 709,
    }),
    el('playlist', { id: 'main_bin' }, [prop('xml_retain', 1)]),
    el('producer', { id: 'black', in: 0, out: total - 1 }, [
      prop('length', total),
      prop('eof', 'pause'),
      prop('resource', 'black'),
      prop('aspect_ratio', 1),
      prop('mlt_service', 'color'),
      prop('mlt_image_format', 'rgba'),
      prop('set.test_audio', 0),
    ]),
    el('playlist', { id: 'background' }, [el('entry', { producer: 'black', in: 0, out: total - 1 })]),
    ...producers,
    el('playlist', { id: 'playlist0' }, [
      prop('shotcut:video', 1),
      prop('shotcut:name', 'V1'),
      ...entries.map((e) => el('entry', { producer: producerId.get(e.c.source.mediaId), in: e.from, out: e.to })),
    ]),
    el('tractor', { id: 'tractor0', title: t.title, in: 0, out: total - 1 }, [
      prop('shotcut', 1),
      prop('shotcut:projectAudioChannels', 2),
      el('track', { producer: 'background' }),
      el('track', { producer: 'playlist0' }),
      // The clips' sound over the background's silence (the top track's picture shows as it is).
      el('transition', { id: 'transition0' }, [
        prop('a_track', 0),
        prop('b_track', 1),
        prop('mlt_service', 'mix'),
        prop('always_active', 1),
        prop('sum', 1),
      ]),
    ]),
  ];
  return xmlDocument(el('mlt', { LC_NUMERIC: 'C', version: '7.12.0', title: t.title, producer: 'main_bin' }, children));
}
