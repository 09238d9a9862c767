import { croppedCanvas } from '../../../../contract';
import { convertFrames, fps, frameAt, sourcesOf, stemOf, type ExportClip, type ExportTimeline, type Rate } from './timeline';
import { el, text, xmlDocument, type XmlNode } from './xml';

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);
const prop = (name: string, value: string | number) => el('property', { name }, [text(value)]);
const px = (n: number) => String(Math.round(n * 1000) / 1000);

/**
 * The profile's size: the first clip's; with a cropping aspect, that shape with its short side the
 * first original's short side (a 1280x720 original: 720x1280 for 9:16, 720x720 for 1:1).
 */
function canvasOf(t: ExportTimeline): { width: number; height: number } {
  const { width, height } = t.clips[0]!.source;
  return t.aspect && width && height ? croppedCanvas(t.aspect, Math.min(width, height)) : { width, height };
}

/**
 * Issue 39: a clip's crop as Shotcut's Size, Position & Rotate (MLT's affine filter): the original
 * scaled so that its crop window fills the canvas, placed so the window's centre is the canvas's,
 * kept covering it; keyframed along the window's path (frames from the clip's start, linear between,
 * a cut as a one-frame move), or one rectangle when the window stays put.
 */
function cropFilter(c: ExportClip, canvas: { width: number; height: number }, rate: Rate, length: number, id: string) {
  const f = c.framing!;
  const { width: sw, height: sh } = c.source;
  const scale = Math.max(canvas.width / (f.width * sw), canvas.height / (f.height * sh));
  const [w, h] = [sw * scale, sh * scale];
  const rect = (p: { x: number; y: number }) => {
    const x = Math.min(0, Math.max(canvas.width - w, canvas.width / 2 - p.x * w));
    const y = Math.min(0, Math.max(canvas.height - h, canvas.height / 2 - p.y * h));
    return `${px(x)} ${px(y)} ${px(w)} ${px(h)} 1`;
  };
  const keys: Array<{ frame: number; value: string }> = [];
  for (const p of [...f.points].sort((a, b) => a.t - b.t)) {
    const frame = Math.min(length - 1, Math.max(0, Math.round(p.t * fps(rate))));
    const last = keys[keys.length - 1];
    if (last?.frame === frame) {
      // A cut: the window before it holds until the frame before, unless that is the key before it.
      if (frame - 1 > (keys[keys.length - 2]?.frame ?? -1)) last.frame = frame - 1;
      else keys.pop();
    }
    keys.push({ frame, value: rect(p) });
  }
  const animated = keys.length > 1 && keys.some((k) => k.value !== keys[0]!.value);
  return el('filter', { id }, [
    prop('mlt_service', 'affine'),
    prop('shotcut:filter', 'affineSizePosition'),
    prop('background', 'color:#00000000'),
    prop('transition.fill', 1),
    prop('transition.distort', 0),
    prop('transition.halign', 'center'),
    prop('transition.valign', 'middle'),
    prop('transition.rect', animated ? keys.map((k) => `${k.frame}=${k.value}`).join(';') : keys[0]!.value),
  ]);
}

/**
 * MLT XML (the project format of Shotcut and the engine of Kdenlive), laid out as Shotcut writes a
 * timeline so it opens as one: a profile of the first clip's size and rate, a producer per
 * original (`resource` its file name, resolved beside the project), a black background track and
 * the video track `playlist0` of the clips, in a tractor marked `shotcut`. In and out points are
 * frames at the profile's rate, `out` inclusive (MLT's convention). With a cropping aspect the
 * profile has that shape and each clip is cropped as its render is (cropFilter).
 */
export function writeMlt(t: ExportTimeline): string {
  const first = t.clips[0]!.source;
  const rate: Rate = first.rate;
  const { width, height } = canvasOf(t);
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
      ...entries.map((e, i) =>
        el(
          'entry',
          { producer: producerId.get(e.c.source.mediaId), in: e.from, out: e.to },
          e.c.framing && e.c.source.width && e.c.source.height
            ? [cropFilter(e.c, { width, height }, rate, e.to - e.from + 1, `filter${i}`)]
            : [],
        ),
      ),
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
