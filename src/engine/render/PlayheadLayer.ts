import { Graphics } from 'pixi.js';
import { xOf, type RenderView } from './RenderView';
import { COLORS } from './theme';

/** The playhead: a 2 px line over both rows with a marker in the ruler. Drawn once, then moved. */
export class PlayheadLayer {
  readonly graphics = new Graphics();
  private height = 0;

  update(v: RenderView) {
    const g = this.graphics;
    const bottom = v.rulerHeight + v.rowHeight;
    if (bottom !== this.height) {
      this.height = bottom;
      g.clear();
      g.rect(-1, 0, 2, bottom).fill(COLORS.playhead);
      g.poly([-6, 0, 6, 0, 6, 8, 0, 14, -6, 8]).fill(COLORS.playhead);
    }
    const x = Math.round(xOf(v, v.time));
    g.visible = x >= -8 && x <= v.width + 8;
    g.x = x;
  }
}
