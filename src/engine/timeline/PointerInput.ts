import { TIMELINE } from '../../contract';
import {
  autoScrollBy,
  dragEnd,
  dragStart,
  edgeScrollSpeed,
  handleAtX,
  minRangeFrames,
  moveRange,
  nearestFrame,
  pxPerSecond,
  rangeFrames,
  rangeSeconds,
  sameRange,
  timeAtX,
  xAtTime,
  type FrameRange,
} from '../kernels';
import { HANDLE_SLOP, HANDLE_WIDTH } from '../render/theme';
import type { Teardown } from '../Teardown';
import type { DragKind, MomentRange, TimelineHost } from './types';

const ROWS_HEIGHT = TIMELINE.rulerHeight + TIMELINE.thumbnailRowHeight;
const REACH = { width: HANDLE_WIDTH, slop: HANDLE_SLOP };

/** What pointer input needs from the engine beyond the shared state. */
export interface PointerHost extends TimelineHost {
  canvas(): HTMLCanvasElement | null;
  /** Moves the playhead (no reveal while the pointer holds it). */
  seekTo(seconds: number, reveal: boolean): void;
  /** A range drag that changed the range ended: tell the app. */
  commitRange(): void;
  /** The hover handle changed: redraw. */
  invalidate(): void;
  /** Edge auto-scroll wants animation frames (`stepAutoScroll` runs in each). */
  requestFrame(): void;
  /** Auto-scroll stopped: a frame requested only for it is not needed. */
  cancelStepFrame(): void;
}

/** One pointer drag, from press to release (or Escape, or a second finger). */
interface Drag {
  kind: DragKind;
  pointerId: number;
  /** The pointer, px from the timeline's top left (auto-scroll keeps applying x). */
  x: number;
  y: number;
  /** The range and playhead at the press: a cancelled drag puts them back. */
  range: MomentRange | null;
  time: number;
  /** Range body: the range in frames and the media time under the pointer at the press. */
  grabbed: { range: FrameRange; time: number } | null;
  /** The drag's own listeners (Escape); gone when it ends or the engine is destroyed. */
  teardown: Teardown;
}

/**
 * Pointer input on the timeline: a press on a handle resizes the range, on the range's body (the
 * thumbnail row between the handles) moves it whole, anywhere else seeks and drags the playhead.
 * Releasing commits a range drag; Escape or a second finger cancels it. While a drag holds the
 * pointer near or past an edge of a zoomed-in view, each animation frame pans the view and the
 * dragged thing follows the time under the pointer (edge auto-scroll).
 */
export class PointerInput {
  private drag: Drag | null = null;
  /** Edge auto-scroll is running: each animation frame pans and re-applies the drag. */
  private autoScroll: { lastFrameAt: number | null } | null = null;
  /** The handle under a pointer that is not dragging (drawn highlighted). */
  hoverHandle: 'start' | 'end' | null = null;

  constructor(private readonly host: PointerHost) {}

  /** Listens on the canvas until the engine's teardown. */
  listen(canvas: HTMLCanvasElement) {
    const td = this.host.teardown;
    td.listen(canvas, 'pointerdown', (e) => this.onPointerDown(e as PointerEvent));
    td.listen(canvas, 'pointermove', (e) => this.onPointerMove(e as PointerEvent));
    td.listen(canvas, 'pointerup', (e) => this.onPointerUp(e as PointerEvent));
    td.listen(canvas, 'pointercancel', (e) => this.onPointerUp(e as PointerEvent));
    td.listen(canvas, 'pointerleave', () => this.setHover(null));
  }

  private get fps() {
    return this.host.fps;
  }

  private get duration() {
    return this.host.duration;
  }

  private frames(range: MomentRange): FrameRange {
    return rangeFrames(range, this.fps, this.duration);
  }

  private pointerAt(e: PointerEvent): { x: number; y: number } {
    const rect = this.host.canvas()?.getBoundingClientRect();
    return { x: e.clientX - (rect?.left ?? 0), y: e.clientY - (rect?.top ?? 0) };
  }

  private handleAt(x: number, y: number): 'start' | 'end' | null {
    const range = this.host.state().range;
    if (!range || y > ROWS_HEIGHT) return null;
    const v = this.host.viewport();
    return handleAtX(x, xAtTime(v, range.start), xAtTime(v, range.end), REACH);
  }

  /** Over the range between its handles, in the thumbnail row: a press there moves the whole range. */
  private onRangeBody(x: number, y: number): boolean {
    const range = this.host.state().range;
    if (!range || y < TIMELINE.rulerHeight || y > ROWS_HEIGHT || this.handleAt(x, y)) return false;
    const v = this.host.viewport();
    return x > xAtTime(v, range.start) && x < xAtTime(v, range.end);
  }

  private onPointerDown(e: PointerEvent) {
    const canvas = this.host.canvas();
    if (!canvas) return;
    if (this.drag) {
      // A second finger starts a pinch (TimelineView zooms): the drag the first one began is undone.
      if (e.pointerId !== this.drag.pointerId) return this.cancelDrag();
      // The same pointer pressing again: its release was lost (outside the page); that drag is done.
      this.finishDrag();
    }
    if (e.button !== 0 || !e.isPrimary) return;
    const { x, y } = this.pointerAt(e);
    const kind: DragKind = this.handleAt(x, y) ?? (this.onRangeBody(x, y) ? 'range' : 'playhead');
    try {
      canvas.setPointerCapture(e.pointerId);
    } catch {
      // Synthetic pointers (tests) have no active pointer to capture.
    }
    e.preventDefault();
    this.startDrag(kind, e.pointerId, x, y);
  }

  private onPointerMove(e: PointerEvent) {
    const { x, y } = this.pointerAt(e);
    const drag = this.drag;
    if (!drag) return this.hoverAt(x, y);
    if (e.pointerId !== drag.pointerId) return;
    drag.x = x;
    drag.y = y;
    this.followPointer(drag);
    this.updateAutoScroll();
  }

  private onPointerUp(e: PointerEvent) {
    if (!this.drag || e.pointerId !== this.drag.pointerId) return;
    this.finishDrag();
    const { x, y } = this.pointerAt(e);
    this.hoverAt(x, y);
  }

  private startDrag(kind: DragKind, pointerId: number, x: number, y: number) {
    const { range, time } = this.host.state();
    const grabbed = kind === 'range' && range ? { range: this.frames(range), time: timeAtX(this.host.viewport(), x) } : null;
    const drag: Drag = { kind, pointerId, x, y, range, time, grabbed, teardown: this.host.teardown.child() };
    this.drag = drag;
    // Escape cancels the drag. It is heard on window in the capture phase, before a dialog around
    // the timeline (Radix listens on the document's capture phase) would close on it.
    drag.teardown.listen(
      window,
      'keydown',
      (e) => {
        if ((e as KeyboardEvent).key !== 'Escape' || this.drag !== drag) return;
        e.preventDefault();
        this.cancelDrag();
      },
      { capture: true },
    );
    this.host.patch({ dragging: kind });
    this.setCursor(kind === 'range' ? 'grabbing' : kind === 'playhead' ? 'col-resize' : 'ew-resize');
    this.followPointer(drag);
  }

  /** Ends the drag (no commit): its listeners, pointer capture and auto-scroll go with it. */
  private endDrag(): Drag | null {
    const drag = this.drag;
    if (!drag) return null;
    this.drag = null;
    drag.teardown.dispose();
    this.stopAutoScroll();
    const canvas = this.host.canvas();
    try {
      if (canvas?.hasPointerCapture(drag.pointerId)) canvas.releasePointerCapture(drag.pointerId);
    } catch {
      // Nothing was captured.
    }
    this.host.patch({ dragging: null });
    return drag;
  }

  /** The drag released: a range drag (handle or body) that changed the range commits it, as I/O do. */
  private finishDrag() {
    const drag = this.endDrag();
    if (drag && drag.kind !== 'playhead' && !sameRange(drag.range, this.host.state().range)) this.host.commitRange();
  }

  /** Escape or a second finger: the drag ends uncommitted, the range and playhead go back to where they were at the press. */
  private cancelDrag() {
    const drag = this.endDrag();
    if (!drag) return;
    if (drag.kind === 'playhead') this.host.seekTo(drag.time, false);
    else if (!sameRange(drag.range, this.host.state().range)) this.host.patch({ range: drag.range });
    this.hoverAt(drag.x, drag.y);
  }

  /** Applies the pointer's position to what is dragged (after a move, or when auto-scroll moved the view under it). */
  private followPointer(drag: Drag) {
    switch (drag.kind) {
      case 'start':
      case 'end':
        return this.dragHandleTo(drag.kind, drag.x);
      case 'range':
        return this.moveRangeTo(drag, drag.x);
      case 'playhead':
        return this.host.seekTo(timeAtX(this.host.viewport(), drag.x), false);
    }
  }

  private hoverAt(x: number, y: number) {
    const handle = this.handleAt(x, y);
    this.setHover(handle);
    this.setCursor(handle ? 'ew-resize' : this.onRangeBody(x, y) ? 'grab' : 'pointer');
  }

  private moveRangeTo(drag: Drag, x: number) {
    if (!drag.grabbed) return;
    const { range, time } = drag.grabbed;
    const next = rangeSeconds(moveRange(range, timeAtX(this.host.viewport(), x) - time, this.duration, this.fps), this.fps);
    if (!sameRange(next, this.host.state().range)) this.host.patch({ range: next });
  }

  private dragHandleTo(handle: 'start' | 'end', x: number) {
    const range = this.host.state().range;
    if (!range) return;
    const v = this.host.viewport();
    const frame = nearestFrame(timeAtX(v, x), this.fps, this.duration);
    const min = minRangeFrames(pxPerSecond(v), this.fps);
    const current = this.frames(range);
    const next = handle === 'start' ? dragStart(current, frame, min) : dragEnd(current, frame, min, this.duration, this.fps);
    const seconds = rangeSeconds(next, this.fps);
    if (!sameRange(seconds, range)) this.host.patch({ range: seconds });
  }

  // Edge auto-scroll: while a drag holds the pointer near or past an edge of a zoomed-in view, each
  // animation frame pans the view and the dragged thing follows the time now under the pointer.
  // The loop runs only then; it stops when the pointer leaves the zone, the view reaches the media's
  // end or the drag ends. Only pointer moves start it, so pressing near an edge does not scroll.
  private updateAutoScroll() {
    const drag = this.drag;
    if (!drag || edgeScrollSpeed(this.host.viewport(), drag.x) === 0) return this.stopAutoScroll();
    if (this.autoScroll) return;
    this.autoScroll = { lastFrameAt: null };
    this.host.requestFrame();
  }

  /** One animation frame of auto-scroll; true while it goes on. */
  stepAutoScroll(now: number): boolean {
    const scroll = this.autoScroll;
    if (!scroll) return false;
    const drag = this.drag;
    if (!drag) {
      this.autoScroll = null;
      return false;
    }
    // The first frame has no previous one to measure from: it counts as one 60 Hz frame.
    const dt = scroll.lastFrameAt === null ? 1 / 60 : (now - scroll.lastFrameAt) / 1000;
    scroll.lastFrameAt = now;
    const next = autoScrollBy(this.host.viewport(), drag.x, dt);
    if (next.viewStart !== this.host.state().viewStart) {
      this.host.patch({ viewStart: next.viewStart });
      this.followPointer(drag);
    }
    if (edgeScrollSpeed(this.host.viewport(), drag.x) === 0) this.autoScroll = null;
    return this.autoScroll !== null;
  }

  private stopAutoScroll() {
    if (!this.autoScroll) return;
    this.autoScroll = null;
    this.host.cancelStepFrame();
  }

  private setHover(handle: 'start' | 'end' | null) {
    if (this.hoverHandle === handle) return;
    this.hoverHandle = handle;
    this.host.invalidate();
  }

  private setCursor(cursor: string) {
    const canvas = this.host.canvas();
    if (canvas && canvas.style.cursor !== cursor) canvas.style.cursor = cursor;
  }

  /** Forgets the drag and the scroll (the engine's teardown has removed their listeners). */
  destroy() {
    this.drag = null;
    this.autoScroll = null;
  }
}
