import { useEffect, useMemo, useRef, useState } from 'react';
import { RESULTS_GRID, type Media, type Moment } from '../../../contract';
import { isMomentSelected } from '../../state/search';
import { layoutMasonry, orientationOf, type CellOrientation } from './masonry';
import { MomentCard, MomentSkeleton } from './MomentCard';

/** Width of the element, followed as it resizes (at most every 100 ms, section 9). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const measure = () => {
      timer = null;
      last = Date.now();
      setWidth(el.clientWidth);
    };
    const ro = new ResizeObserver(() => {
      if (timer) return;
      const wait = Math.max(0, RESULTS_GRID.throttleMs - (Date.now() - last));
      timer = setTimeout(measure, wait);
    });
    ro.observe(el);
    measure();
    return () => {
      ro.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return { ref, width };
}

/** Placeholder cells while searching: landscape, the shape most results take. */
const SKELETONS: CellOrientation[] = Array.from({ length: RESULTS_GRID.skeletons }, () => 'horizontal');

/** The results masonry (spec section 2): moment cards, or 10 skeleton cells while searching. */
export function ResultsGrid({
  results,
  medias,
  searching,
  autoplay,
  selected,
  selecting,
  captionOf,
  onOpen,
  onToggle,
  onSimilar,
}: {
  results: readonly Moment[];
  medias: Record<string, Media>;
  searching: boolean;
  autoplay: boolean;
  selected: readonly Moment[];
  selecting: boolean;
  captionOf: (m: Moment) => string | null;
  onOpen: (m: Moment) => void;
  onToggle: (m: Moment) => void;
  onSimilar: (m: Moment) => void;
}) {
  const { ref, width } = useWidth();
  const orientations = useMemo(
    () =>
      searching
        ? SKELETONS
        : results.map((m) => {
            const v = medias[m.mediaId]?.metadata.video;
            return orientationOf(v?.width ?? 0, v?.height ?? 0);
          }),
    [searching, results, medias],
  );
  const layout = useMemo(() => layoutMasonry(orientations, width), [orientations, width]);

  return (
    <div
      ref={ref}
      className="results-grid"
      style={{ height: width ? layout.height : undefined }}
      aria-busy={searching || undefined}
      aria-label={searching ? 'Searching' : 'Results'}
      role="region"
    >
      {width > 0 &&
        (searching
          ? layout.cells.map((cell, i) => <MomentSkeleton key={i} cell={cell} />)
          : results.map((m, i) => (
              <MomentCard
                key={m.id}
                moment={m}
                media={medias[m.mediaId]}
                cell={layout.cells[i]!}
                autoplay={autoplay}
                selected={isMomentSelected(selected, m.id)}
                selecting={selecting}
                caption={captionOf(m)}
                onOpen={onOpen}
                onToggle={onToggle}
                onSimilar={onSimilar}
              />
            )))}
    </div>
  );
}
