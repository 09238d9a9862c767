import { shotTermScores, type FrameLabels } from '../../search/visualTerms';
import type { StageDeps, StageHandler } from './stage';

/** Each shot's one-line description from what its keyframes show, then the shot index of the media. */
export const descriptionsStage: StageHandler = async ({ media, deps }) => {
  const frames = await deps.index.keyframes(media.id);
  for (const shot of await deps.index.shots(media.id)) {
    const inShot = frames.filter((f) => f.shot_idx === shot.idx);
    await deps.index.setShotDescription(media.id, shot.idx, describeShot(inShot));
  }
  await indexShotTerms(deps, media.id, media.library_id);
};

/** Writes the shot index (each shot's best score per word) of a media from its keyframes' labels. */
export async function indexShotTerms(deps: Pick<StageDeps, 'index' | 'expand'>, mediaId: string, libraryId: string) {
  const byShot = new Map<number, FrameLabels[]>();
  for (const f of await deps.index.keyframes(mediaId)) (byShot.get(f.shot_idx) ?? byShot.set(f.shot_idx, []).get(f.shot_idx)!).push(f);
  const rows = [...byShot].flatMap(([shotIdx, frames]) =>
    [...shotTermScores(frames, deps.expand)].map(([term, score]) => ({ shotIdx, term, score })),
  );
  await deps.index.replaceShotTerms(mediaId, libraryId, rows);
}

type FrameFeatures = { objects: unknown; classes: unknown; colours: unknown; ocr: string };

/**
 * An honest one-line description of a shot from what the index saw in its keyframes: the objects
 * most often detected, the likeliest image classes, dominant colours and any on-screen text.
 */
export function describeShot(frames: FrameFeatures[]): string {
  const count = (items: Array<{ label: string; score: number }>, min: number) => {
    const m = new Map<string, number>();
    for (const it of items) if (it.score >= min) m.set(it.label, (m.get(it.label) ?? 0) + it.score);
    return [...m.entries()].sort((a, b) => b[1] - a[1]).map(([l]) => l);
  };
  const objects = count(
    frames.flatMap((f) => f.objects as Array<{ label: string; score: number }>),
    0.4,
  ).slice(0, 4);
  const classes = count(
    frames.flatMap((f) => f.classes as Array<{ label: string; score: number }>),
    0.25,
  ).slice(0, 2);
  const colours = count(
    frames.flatMap((f) => (f.colours as Array<{ name: string; fraction: number }>).map((c) => ({ label: c.name, score: c.fraction }))),
    0.15,
  ).slice(0, 3);
  const text = [...new Set(frames.flatMap((f) => f.ocr.split(' ').filter(Boolean)))].slice(0, 8);
  const parts: string[] = [];
  if (objects.length) parts.push(`Seen: ${objects.join(', ')}`);
  if (classes.length) parts.push(`Looks like: ${classes.join(', ')}`);
  if (colours.length) parts.push(`Colours: ${colours.join(', ')}`);
  if (text.length) parts.push(`Text on screen: "${text.join(' ')}"`);
  return parts.join('. ');
}
