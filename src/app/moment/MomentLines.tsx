import { useMemo, useState } from 'react';
import { MSG_MOMENT } from '../../contract';
import { useQuery } from '@tanstack/react-query';
import { searchApi } from '../api/instance';
import { queryKeys } from '../api/queryKeys';
import { useAccountId } from '../hooks/useAccountId';
import { SegmentedControl } from '../ui/SegmentedControl';
import { MatchedText } from './MatchedText';
import { matchTerms } from './matchWords';
import { TranscriptLines, type LinesProps } from './TranscriptLines';
import { overlaps, useLineFollow } from './useLineFollow';
import { formatClock } from '../ui/format';
import './moment.css';

/** Dialog tab (spec section 4). */
export type LinesTab = 'visual' | 'transcript';

interface Line {
  start: number;
  end: number;
  text: string;
}

type Loaded = { status: 'loading' } | { status: 'ready'; lines: Line[] } | { status: 'error' };

/** Loads the media's shot descriptions (spec section 3) while their tab shows: afresh each time it opens (gcTime 0). */
function useDescriptions(libraryId: string, mediaId: string): Loaded {
  const accountId = useAccountId();
  const query = useQuery({
    queryKey: queryKeys.descriptions(accountId ?? '', libraryId, mediaId),
    queryFn: async ({ signal }): Promise<Line[]> => {
      const f = await searchApi.shotDescriptions(libraryId, mediaId, signal);
      const lines = f.descriptions.filter((d) => d.desc.trim()).map((d) => ({ start: d.start, end: d.end, text: d.desc }));
      return lines.sort((a, b) => a.start - b.start);
    },
    retry: false,
    networkMode: 'always',
    staleTime: Infinity,
    gcTime: 0,
  });
  return query.data ? { status: 'ready', lines: query.data } : query.isError ? { status: 'error' } : { status: 'loading' };
}

/**
 * The side panel (spec section 2): Transcript and Visual summary tabs over the media's lines. The
 * line playing in `video` is highlighted and followed; clicking a line seeks there. The media's
 * owner corrects transcript lines in place (TranscriptLines).
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
}: LinesProps & {
  defaultTab: LinesTab;
  /** The tab shown, when the caller keeps it (the library page in its address); otherwise the panel does. */
  tab?: LinesTab;
  onTabChange?: (tab: LinesTab) => void;
}) {
  const [ownTab, setOwnTab] = useState<LinesTab>(defaultTab);
  const tab = shownTab ?? ownTab;
  const setTab = (next: LinesTab) => {
    setOwnTab(next);
    onTabChange?.(next);
  };
  const lines: LinesProps = { libraryId, mediaId, video, highlight, matchText, onSeek };
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
      {tab === 'transcript' ? <TranscriptLines {...lines} /> : <DescriptionLines {...lines} />}
    </aside>
  );
}

/** Keys that scroll a focused list: the user's own scrolling, like the wheel. */
const SCROLL_KEYS = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/** The visual summary: the shots' descriptions, following playback; a click on one seeks there. */
function DescriptionLines({ libraryId, mediaId, video, highlight, matchText = '', onSeek }: LinesProps) {
  const data = useDescriptions(libraryId, mediaId);
  const terms = useMemo(() => matchTerms(matchText), [matchText]);
  const lines = data.status === 'ready' ? data.lines : null;
  const { listProps, active, userScrolled } = useLineFollow(lines, video, highlight);

  if (data.status === 'loading') return <p className="moment-side__note">{MSG_MOMENT.loading}</p>;
  if (!lines?.length) return <p className="moment-side__note">{MSG_MOMENT.noDescription}</p>;
  return (
    <ol
      {...listProps}
      className="moment-lines"
      aria-label="Visual summary"
      onKeyDown={(e) => SCROLL_KEYS.has(e.key) && e.target === e.currentTarget && userScrolled()}
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
            aria-label={`${formatClock(l.start)} ${l.text}`}
          >
            <span className="moment-lines__time">{formatClock(l.start)}</span>
            <span className="moment-lines__text">
              <MatchedText text={l.text} terms={terms} />
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}
