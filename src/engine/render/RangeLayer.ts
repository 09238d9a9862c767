import { Container, Graphics } from 'pixi.js';
import { xOf, type RenderView } from './RenderView';
import { COLORS, HANDLE_WIDTH } from './theme';

/**
 * The moment range: its edges are outlined in the accent colour, a band marks it in the ruler, and
 * its two handles are bars just outside its start and end. (The thumbnail layer dims what is outside.)
 */
export class RangeLayer {
  readonly container = new Container();
  private readonly shade = new Graphics();
  private readonly handles = new Graphics();
  private key = '';

  constructor() {
    this.container.addChild(this.shade, this.handles);
  }

  update(v: RenderView) {
    const xs = v.range ? Math.round(xOf(v, v.range.start)) : 0;
    const xe = v.range ? Math.round(xOf(v, v.range.end)) : 0;
    // Rebuilt only when the picture changes (not when only the playhead moves).
    const key = v.range ? `${xs}:${xe}:${v.width}:${v.rulerHeight}:${v.rowHeight}:${v.activeHandle}` : 'none';
    if (key === this.key) return;
    this.key = key;
    const shade = this.shade.clear();
    const handles = this.handles.clear();
    if (!v.range) return;
    const top = v.rulerHeight;
    const bottom = v.rulerHeight + v.rowHeight;
    const left = Math.max(0, Math.min(v.width, xs));
    const right = Math.max(0, Math.min(v.width, xe));
    // (The media outside the range is dimmed by the thumbnail layer.)
    // Outline of the range across the thumbnail row, and a band in the ruler.
    if (right > left) {
      shade
        .rect(left, top, right - left, 2)
        .rect(left, bottom - 2, right - left, 2)
        .fill(COLORS.accent);
      shade.rect(left, top - 4, right - left, 4).fill({ color: COLORS.accent, alpha: 0.5 });
    }
    this.drawHandle(handles, xs - HANDLE_WIDTH, top - 4, bottom, v.activeHandle === 'start', v.width);
    this.drawHandle(handles, xe, top - 4, bottom, v.activeHandle === 'end', v.width);
  }

  private drawHandle(g: Graphics, x: number, top: number, bottom: number, active: boolean, width: number) {
    if (x + HANDLE_WIDTH < 0 || x > width) return;
    g.roundRect(x, top, HANDLE_WIDTH, bottom - top, 3).fill(active ? COLORS.accentHover : COLORS.accent);
    const mid = (top + bottom) / 2;
    g.rect(x + 3, mid - 8, 1, 16)
      .rect(x + HANDLE_WIDTH - 4, mid - 8, 1, 16)
      .fill(COLORS.grip);
  }
}
