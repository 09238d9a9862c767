import { useState, type ReactNode } from 'react';
import { rowWindow, viewportHeight } from './windowing';

/**
 * A vertical list of fixed-height rows that mounts only the rows in view (plus a few), for lists
 * that can grow long. The viewport is `maxHeight` tall, or shorter when the rows do not fill it.
 */
export function VirtualList({
  count,
  rowHeight,
  maxHeight,
  renderRow,
  className,
  label,
}: {
  count: number;
  rowHeight: number;
  maxHeight: number;
  /** One row (a `listitem`, keyed); it is placed at its position and must be `rowHeight` tall. */
  renderRow: (index: number) => ReactNode;
  className?: string;
  label?: string;
}) {
  const [scrollTop, setScrollTop] = useState(0);
  const height = viewportHeight(count, rowHeight, maxHeight);
  const { start, end, offset, totalHeight } = rowWindow({ scrollTop, viewportHeight: height, rowHeight, count });
  const rows: ReactNode[] = [];
  for (let i = start; i < end; i++) rows.push(renderRow(i));
  return (
    <div
      className={['virtual-list', className].filter(Boolean).join(' ')}
      style={{ height, overflowY: 'auto' }}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      role="list"
      aria-label={label}
      // Scrollable by keyboard even when no row inside can take focus.
      tabIndex={0}
    >
      <div style={{ height: totalHeight, position: 'relative' }}>
        <div style={{ position: 'absolute', top: offset, left: 0, right: 0 }}>{rows}</div>
      </div>
    </div>
  );
}
