import { ARROW_SEEK_SECONDS, TRANSCRIPT_FOLLOW, VOLUME } from '../../contract';

/** Pure rules of the moment player and its lines panel (spec sections 3, 5 and 9). */

/** The player's sound (spec section 3): volume 0..100, muted, and the volume an unmute restores. */
export interface SoundState {
  volume: number;
  muted: boolean;
  previousVolume: number;
}

export const DEFAULT_SOUND: SoundState = { volume: VOLUME.default, muted: false, previousVolume: VOLUME.default };

/** A slider move: a volume above 0 unmutes and is the one to come back to; 0 is muted. */
export function withVolume(s: SoundState, volume: number): SoundState {
  const v = Math.min(VOLUME.max, Math.max(VOLUME.min, Math.round(volume)));
  return v > 0 ? { volume: v, muted: false, previousVolume: v } : { volume: 0, muted: true, previousVolume: s.previousVolume };
}

/** Mute remembers the volume; unmute brings it back (the default when there was none). */
export function toggledMute(s: SoundState): SoundState {
  if (s.muted) {
    const v = s.previousVolume > 0 ? s.previousVolume : VOLUME.default;
    return { volume: v, muted: false, previousVolume: v };
  }
  return { volume: 0, muted: true, previousVolume: s.volume > 0 ? s.volume : s.previousVolume };
}

/** The position after an arrow key (section 5): 5 s either way, snapping to 0 under 5 s, within the media. */
export function arrowSeek(current: number, direction: -1 | 1, duration: number): number {
  const next = current + direction * ARROW_SEEK_SECONDS;
  if (next < ARROW_SEEK_SECONDS) return 0;
  return Number.isFinite(duration) && duration > 0 ? Math.min(duration, next) : next;
}

export interface TimedLine {
  start: number;
  end: number;
}

/**
 * The line playing at `t` (section 9: within 0.1 s of its span), or -1. Where lines overlap, or
 * the tolerance reaches into a neighbour, the latest line that has started wins.
 */
export function activeLineIndex(
  lines: readonly TimedLine[],
  t: number,
  tolerance: number = TRANSCRIPT_FOLLOW.activeToleranceSeconds,
): number {
  let found = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.start - tolerance > t) break;
    if (t <= l.end + tolerance && (found < 0 || l.start <= t)) found = i;
  }
  return found;
}
