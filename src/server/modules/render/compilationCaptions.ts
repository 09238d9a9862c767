import type { CaptionsOption } from '../../../contract';
import { captionStates, compilationCues, cuesToSrt, type CaptionSegment, type Cue } from './captions';
import type { RenderCaptions } from './render.service';

/** A media's transcript segments (the corrected text) with the recogniser's word times. */
export type TranscriptReader = (mediaId: string) => Promise<CaptionSegment[]>;

/** The cues of a compilation's clips, on its clock, from their media's transcripts (each read once). */
export async function clipCues(
  transcript: TranscriptReader,
  clips: ReadonlyArray<{ mediaId: string; start: number; end: number }>,
): Promise<Cue[]> {
  const transcripts = new Map<string, Promise<CaptionSegment[]>>();
  const read = (id: string) => transcripts.get(id) ?? transcripts.set(id, transcript(id)).get(id)!;
  const segments = await Promise.all(clips.map((c) => read(c.mediaId)));
  return compilationCues(clips.map((c, i) => ({ start: c.start, end: c.end, segments: segments[i]! })));
}

/** What the renderer burns and muxes; nothing when nothing is said in the clips (the render goes on without). */
export async function renderCaptions(
  transcript: TranscriptReader,
  clips: ReadonlyArray<{ mediaId: string; start: number; end: number }>,
  o: CaptionsOption,
): Promise<RenderCaptions | undefined> {
  const cues = await clipCues(transcript, clips);
  if (!cues.length) return undefined;
  const burn = o.burn;
  return {
    ...(burn && { burn: (width: number, height: number) => captionStates(cues, burn, width, height) }),
    ...(o.soft && { srt: cuesToSrt(cues) }),
  };
}

/** The captions asked for, or undefined when none (neither burned in nor soft): part of a render's request key. */
export function captionsOf(o: CaptionsOption | undefined): CaptionsOption | undefined {
  if (!o || (!o.burn && !o.soft)) return undefined;
  return { ...(o.burn && { burn: o.burn }), ...(o.soft && { soft: true }) };
}
