import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { TRANSCRIPT_FOLLOW } from '../../contract';
import type { TimeRange } from '../state/momentEdits';
import { mediaTimeOf } from '../../engine/core/mediaClock';
import { activeLineIndex } from '../media/playerRules';

export interface TimedLine {
  start: number;
  end: number;
}

export const overlaps = (l: TimedLine, r: TimeRange | null) => Boolean(r && l.start < r.endTime && l.end > r.startTime);

/**
 * The side panel's lines follow playback (section 9): the line playing in `video` is the active
 * one, and it (or, before playback reaches one, the moment's first) is kept in view by scrolling
 * the list itself, so the dialog around it stays put. The user's own scrolling (`userScrolled`)
 * pauses that for 5 s; `hold` pauses it for as long as it is true (a line being edited).
 */
export function useLineFollow(
  lines: readonly TimedLine[] | null,
  video: HTMLVideoElement | null,
  highlight: TimeRange | null,
  hold = false,
) {
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLOListElement>(null);
  const [followPaused, setFollowPaused] = useState(false);
  const resumeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  // The active line follows playback; state changes only when the line does.
  useEffect(() => {
    if (!video || !lines) return;
    const update = () => setActive(activeLineIndex(lines, mediaTimeOf(video)));
    const events = ['timeupdate', 'seeked', 'loadedmetadata'] as const;
    events.forEach((e) => video.addEventListener(e, update));
    update();
    return () => events.forEach((e) => video.removeEventListener(e, update));
  }, [video, lines]);

  const firstInMoment = lines ? lines.findIndex((l) => overlaps(l, highlight)) : -1;
  const target = active >= 0 ? active : firstInMoment;
  useEffect(() => {
    const el = list.current;
    if (!el || target < 0 || followPaused || hold) return;
    const item = el.children[target] as HTMLElement | undefined;
    if (!item) return;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight)
      el.scrollTop = Math.max(0, top - (el.clientHeight - item.offsetHeight) / 2);
  }, [target, followPaused, hold, lines]);

  useEffect(() => () => void (resumeTimer.current && clearTimeout(resumeTimer.current)), []);

  const userScrolled = useCallback(() => {
    setFollowPaused(true);
    if (resumeTimer.current) clearTimeout(resumeTimer.current);
    resumeTimer.current = setTimeout(() => setFollowPaused(false), TRANSCRIPT_FOLLOW.manualScrollPauseMs);
  }, []);

  // The followed list's own attributes: its ref, whether it follows (data-follow), and the user's
  // scrolling by wheel, touch or a press on the list itself (not a line), which is its scrollbar.
  const listProps = {
    ref: list,
    'data-follow': followPaused || hold ? 'paused' : 'on',
    onWheel: userScrolled,
    onTouchMove: userScrolled,
    onPointerDown: (e: PointerEvent) => void (e.target === e.currentTarget && userScrolled()),
  };
  return { listProps, active, firstInMoment, userScrolled };
}
