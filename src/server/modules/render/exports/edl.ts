import { convertFrames, isDropFrame, sourcesOf, stemOf, timecode, timecodeBase, type ExportTimeline } from './timeline';

/** CMX 3600 reel names: at most 8 characters. */
export const REEL_LENGTH = 8;

/**
 * A reel name per original: its file name's letters and digits, upper case, at most 8; names that
 * would repeat end in a number instead (TALK, TALK02...).
 */
export function reelNames(fileNames: string[]): string[] {
  const taken = new Set<string>();
  return fileNames.map((f) => {
    const base =
      stemOf(f)
        .normalize('NFKD')
        .toUpperCase()
        .replace(/[^A-Z0-9]/g, '') || 'AX';
    let reel = base.slice(0, REEL_LENGTH);
    for (let i = 2; taken.has(reel); i++) {
      const suffix = String(i).padStart(2, '0');
      reel = base.slice(0, REEL_LENGTH - suffix.length) + suffix;
    }
    taken.add(reel);
    return reel;
  });
}

/**
 * A CMX 3600 EDL: the title, the frame count mode of the record side (the first clip's rate), then
 * one cut event a clip, `NNN  REEL     CH    C        srcIn srcOut recIn recOut` in the format's
 * columns, and the original's file name in a `* FROM CLIP NAME:` comment (what editors relink by).
 * Source timecodes count from 00:00:00:00 at the source's own rate (`;` before the frames in
 * drop-frame); the record side starts at 01:00:00:00, as editors expect.
 */
export function writeEdl(t: ExportTimeline): string {
  const seq = t.clips[0]!.source.rate;
  const sources = sourcesOf(t);
  const reels = new Map(reelNames(sources.map((s) => s.fileName)).map((r, i) => [sources[i]!.mediaId, r] as const));
  const base = timecodeBase(seq);
  // Frames counted by 01:00:00:00: drop-frame skips 2 (4) numbers in 54 of the hour's minutes.
  let rec = base * 3600 - (isDropFrame(seq) ? (base / 15) * 54 : 0);
  const title = t.title.replace(/[^\x20-\x7e]/g, '_').slice(0, 70) || 'Clipseek';
  const lines = [`TITLE: ${title}`, `FCM: ${isDropFrame(seq) ? 'DROP FRAME' : 'NON-DROP FRAME'}`, ''];
  t.clips.forEach((c, i) => {
    const length = Math.max(1, convertFrames(c.out - c.in, c.source.rate, seq));
    const channels = c.source.hasAudio ? 'AA/V' : 'V';
    lines.push(
      `${String(i + 1).padStart(3, '0')}  ${reels.get(c.source.mediaId)!.padEnd(8)} ${channels.padEnd(5)} C        ` +
        `${timecode(c.in, c.source.rate)} ${timecode(c.out, c.source.rate)} ${timecode(rec, seq)} ${timecode(rec + length, seq)}`,
      `* FROM CLIP NAME: ${c.source.fileName}`,
      '',
    );
    rec += length;
  });
  return lines.join('\n');
}
