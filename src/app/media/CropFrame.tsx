import { useDrag } from '@use-gesture/react';
import type { KeyboardEvent, RefObject } from 'react';
import { MSG_PUBLISH, type ClipFraming } from '../../contract';
import { clampCentre, type CropSize } from '../../engine/kernels/cropWindow';

/** An arrow key moves the window this share of the picture; with Shift, ten times more. */
const KEY_STEP = 0.01;

/**
 * Issue 39: the crop window itself, over a picture (`picture`, the element the window's fractions are
 * of): drawn at `centre`, dragged with a mouse, pen or finger (@use-gesture/react), or moved with the
 * arrow keys while it has focus. Every move is a fixed centre for the clip (`onMove`), kept inside the
 * picture. Used by the clip editor's and the publish dialog's crop view and over the moment dialog's
 * player.
 */
export function CropFrame({
  picture,
  size,
  centre,
  fixed,
  status,
  describedBy,
  onMove,
}: {
  picture: RefObject<HTMLElement | null>;
  size: CropSize;
  centre: ClipFraming;
  fixed: boolean;
  /** Said with the window's value (following, centred or fixed). */
  status: string;
  describedBy?: string;
  onMove: (framing: ClipFraming) => void;
}) {
  const horizontal = size.width < 1;
  const move = (next: ClipFraming) => onMove(clampCentre(next, size));

  const bind = useDrag(
    ({ movement: [mx, my], memo, first, type }) => {
      // Pointers and fingers only (pointer.touch: touch events): the arrow keys are ours, and the
      // gesture's key-up replayed its last drag.
      if (type.startsWith('key')) return memo as ClipFraming | undefined;
      const from = (first || !memo ? centre : memo) as ClipFraming;
      const box = picture.current?.getBoundingClientRect();
      if (box && box.width > 0 && box.height > 0) move({ x: from.x + mx / box.width, y: from.y + my / box.height });
      return from;
    },
    { pointer: { touch: true }, filterTaps: true, keys: false },
  );

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? KEY_STEP * 10 : KEY_STEP;
    const d = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[e.key];
    if (!d) return;
    e.preventDefault();
    e.stopPropagation();
    move({ x: centre.x + d[0]!, y: centre.y + d[1]! });
  };

  const percent = Math.round((horizontal ? centre.x : centre.y) * 100);
  return (
    <div
      {...bind()}
      className={`crop-view__window${fixed ? ' crop-view__window--fixed' : ''}`}
      data-testid="crop-window"
      style={{
        left: `${(centre.x - size.width / 2) * 100}%`,
        top: `${(centre.y - size.height / 2) * 100}%`,
        width: `${size.width * 100}%`,
        height: `${size.height * 100}%`,
      }}
      tabIndex={0}
      role="slider"
      aria-label={MSG_PUBLISH.cropWindow}
      aria-describedby={describedBy}
      aria-orientation={horizontal ? 'horizontal' : 'vertical'}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent} %, ${status}`}
      data-x={centre.x.toFixed(4)}
      data-y={centre.y.toFixed(4)}
      onKeyDown={onKeyDown}
    />
  );
}

/** What the window's state is called: fixed, or the automatic path's (following, centred, unavailable). */
export function cropStatus(fixed: boolean, path: { isError: boolean; data?: { subject: boolean } }): string {
  if (fixed) return MSG_PUBLISH.fixed;
  if (path.isError) return MSG_PUBLISH.framingUnavailable;
  return path.data && !path.data.subject ? MSG_PUBLISH.followingNothing : MSG_PUBLISH.following;
}
