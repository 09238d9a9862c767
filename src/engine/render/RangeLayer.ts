import { Container, Graphics } from 'pixi.js';
import { xOf, type RenderView } from './RenderView';
import { COLORS, HANDLE_WIDTH, SHADE_ALPHA } from './theme';

/**
 * The moment range: media outside it is shaded, its edges are outlined in the accent colour, and
 * its two handles are bars just outside its start and end.
 */
export class RangeLayer {
  readonly container = new Container();
  private readonly shade = new Graphics();
  private readonly handles = new Graphics();

  constructor() {
    this.container.addChild(this.shade, this.handles);
  }

  update(v: RenderView) {
    const shade = this.shade.clear();
    const handles = this.handles.clear();
    if (!v.range) return;
    const top = v.rulerHeight;
    const bottom = v.rulerHeight + v.rowHeight;
    const xs = Math.round(xOf(v, v.range.start));
    const xe = Math.round(xOf(v, v.range.end));
    const left = Math.max(0, Math.min(v.width, xs));
    const right = Math.max(0, Math.min(v.width, xe));
    if (left > 0) shade.rect(0, top, left, bottom - top);
    if (right < v.width) shade.rect(right, top, v.width - right, bottom - top);
    if (left > 0 || right < v.width) shade.fill({ color: COLORS.shade, alpha: SHADE_ALPHA });
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
