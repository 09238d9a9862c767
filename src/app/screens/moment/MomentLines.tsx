import { useEffect, useMemo, useRef, useState } from 'react';
import { MSG_MOMENT, TRANSCRIPT_FOLLOW } from '../../../contract';
import { searchApi } from '../../api/instance';
import type { TimeRange } from '../../state/momentEdits';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { formatTimecode } from '../search/momentFormat';
import { matchParts, matchTerms } from './matchWords';
import { mediaTimeOf } from './mediaClock';
import { activeLineIndex } from './playerRules';
import './moment.css';

/** Dialog tab (spec section 4). */
export type LinesTab = 'visual' | 'transcript';

interface Line {
  start: number;
  end: number;
  text: string;
}

type Loaded = { status: 'loading' } | { status: 'ready'; lines: Line[] } | { status: 'error' };

/** Loads the media's transcript or shot descriptions (spec section 3) while their tab shows. */
function useLines(libraryId: string, mediaId: string, kind: LinesTab): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    const load: Promise<Line[]> =
      kind === 'transcript'
        ? searchApi.transcript(libraryId, mediaId, controller.signal).then((f) => f.segments.filter((s) => s.text.trim()))
        : searchApi
            .shotDescriptions(libraryId, mediaId, controller.signal)
            .then((f) => f.descriptions.filter((d) => d.desc.trim()).map((d) => ({ start: d.start, end: d.end, text: d.desc })));
    load.then(
      (lines) => !controller.signal.aborted && setState({ status: 'ready', lines: [...lines].sort((a, b) => a.start - b.start) }),
      () => !controller.signal.aborted && setState({ status: 'error' }),
    );
    return () => controller.abort();
  }, [libraryId, mediaId, kind]);
  return state;
}

/**
 * The side panel (spec section 2): Transcript and Visual summary tabs over the media's lines. The
 * line playing in `video` is highlighted and followed; clicking a line seeks there.
 */
export function MomentSidePanel({
  libraryId,
  mediaId,
  defaultTab,
  video,
  highlight,
  matchText = '',
  onSeek,
  tab: shownTab,
  onTabChange,
}: {
  libraryId: string;
  mediaId: string;
  defaultTab: LinesTab;
  /** The tab shown, when the caller keeps it (the library page in its address); otherwise the panel does. */
  tab?: LinesTab;
  onTabChange?: (tab: LinesTab) => void;
  video: HTMLVideoElement | null;
  /** The moment's range: its lines are marked. */
  highlight: TimeRange | null;
  /** The search's words: where lines say them, they are marked. */
  matchText?: string;
  onSeek: (seconds: number) => void;
}) {
  const [ownTab, setOwnTab] = useState<LinesTab>(defaultTab);
  const tab = shownTab ?? ownTab;
  const setTab = (next: LinesTab) => {
    setOwnTab(next);
    onTabChange?.(next);
  };
  return (
    <aside className="moment-side">
      <SegmentedControl<LinesTab>
        label="Details"
        value={tab}
        onValueChange={setTab}
        options={[
          { value: 'transcript', label: 'Transcript' },
          { value: 'visual', label: 'Visual summary' },
        ]}
      />
      <MomentLines
        key={tab}
        libraryId={libraryId}
        mediaId={mediaId}
        kind={tab}
        video={video}
        highlight={highlight}
        matchText={matchText}
        onSeek={onSeek}
      />
    </aside>
  );
}

const overlaps = (l: Line, r: TimeRange | null) => Boolean(r && l.start < r.endTime && l.end > r.startTime);

/** Keys that scroll a focused list: the user's own scrolling, like the wheel. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

export function MomentLines({
  libraryId,
  mediaId,
  kind,
  video,
  highlight,
  matchText = '',
  onSeek,
}: {
  libraryId: string;
  mediaId: string;
  kind: LinesTab;
  video: HTMLVideoElement | null;
  highlight: TimeRange | null;
  matchText?: string;
  onSeek: (seconds: number) => void;
}) {
  const data = useLines(libraryId, mediaId, kind);
  const terms = useMemo(() => matchTerms(matchText), [matchText]);
  const lines = data.status === 'ready' ? data.lines : null;
  const [active, setActive] = useState(-1);
  const list = useRef<HTMLOListElement>(null);
  // Auto-follow pauses for 5 s after the user scrolls the list (section 9).
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

  // Bring the active line (or, before playback reaches one, the moment's first) into view: by
  // scrolling the list itself, so the dialog around it stays put.
  const firstInMoment = lines ? lines.findIndex((l) => overlaps(l, highlight)) : -1;
  const target = active >= 0 ? active : firstInMoment;
  useEffect(() => {
    const el = list.current;
    if (!el || target < 0 || followPaused) return;
    const item = el.children[target] as HTMLElement | undefined;
    if (!item) return;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < el.scrollTop || bottom > el.scrollTop + el.clientHeight)
      el.scrollTop = Math.max(0, top - (el.clientHeight - item.offsetHeight) / 2);
  }, [target, followPaused, lines]);

  useEffect(() => () => void (resumeTimer.current && clearTimeout(resumeTimer.current)), []);

  const userScrolled = () => {
    setFollowPaused(true);
    if (resumeTimer.current) clearTimeout(resumeTimer.current);
    resumeTimer.current = setTimeout(() => setFollowPaused(false), TRANSCRIPT_FOLLOW.manualScrollPauseMs);
  };

  if (data.status === 'loading') return <p className="moment-side__note">{MSG_MOMENT.loading}</p>;
  if (!lines?.length)
    return <p className="moment-side__note">{kind === 'transcript' ? MSG_MOMENT.noTranscript : MSG_MOMENT.noDescription}</p>;
  return (
    <ol
      ref={list}
      className="moment-lines"
      aria-label={kind === 'transcript' ? 'Transcript' : 'Visual summary'}
      data-follow={followPaused ? 'paused' : 'on'}
      onWheel={userScrolled}
      onTouchMove={userScrolled}
      onKeyDown={(e) => SCROLL_KEYS.has(e.key) && e.target === e.currentTarget && userScrolled()}
      // A press on the list itself (not a line) is its scrollbar.
      onPointerDown={(e) => e.target === e.currentTarget && userScrolled()}
      tabIndex={0}
    >
      {lines.map((l, i) => (
        <li
          key={`${l.start}-${i}`}
          className={[
            'moment-lines__item',
            overlaps(l, highlight) && 'moment-lines__item--in',
            i === active && 'moment-lines__item--active',
          ]
            .filter(Boolean)
            .join(' ')}
          aria-current={i === active || undefined}
        >
          <button
            type="button"
            className="moment-lines__seek"
            onClick={() => onSeek(l.start)}
            aria-label={`${formatTimecode(l.start)} ${l.text}`}
          >
            <span className="moment-lines__time">{formatTimecode(l.start)}</span>
            <span className="moment-lines__text">
              {matchParts(l.text, terms).map((p, j) =>
                p.match ? (
                  <mark key={j} className="moment-lines__match">
                    {p.text}
                  </mark>
                ) : (
                  p.text
                ),
              )}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
