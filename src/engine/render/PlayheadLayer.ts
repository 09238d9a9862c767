import { Graphics } from 'pixi.js';
import { xOf, type RenderView } from './RenderView';
import { COLORS } from './theme';

/** The playhead: a 2 px line over both rows with a marker in the ruler. */
export class PlayheadLayer {
  readonly graphics = new Graphics();

  update(v: RenderView) {
    const g = this.graphics.clear();
    const x = Math.round(xOf(v, v.time));
    if (x < -8 || x > v.width + 8) return;
    const bottom = v.rulerHeight + v.rowHeight;
    g.rect(x - 1, 0, 2, bottom).fill(COLORS.playhead);
    g.poly([x - 6, 0, x + 6, 0, x + 6, 8, x, 14, x - 6, 8]).fill(COLORS.playhead);
  }
}
