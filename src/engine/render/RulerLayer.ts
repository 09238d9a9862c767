import { BitmapFontManager, BitmapText, Container, Graphics } from 'pixi.js';
import { chooseTicks, formatClock, formatTimecode, tickTimes } from '../kernels';
import { xOf, type RenderView } from './RenderView';
import { COLORS, LABEL_FONT } from './theme';

let fontInstalled = false;

// A small shared bitmap font (digits and colons): labels become quads, no canvas text per frame.
// It stays installed for the page's life: later engines reuse it and it costs a few KB.
function ensureFont() {
  if (fontInstalled) return;
  BitmapFontManager.install({
    name: LABEL_FONT.name,
    style: { fontFamily: LABEL_FONT.family, fontSize: LABEL_FONT.size, fill: 0xffffff },
    chars: [['0', '9'], ':'],
    resolution: 2,
  });
  fontInstalled = true;
}

/** The 30 px ruler: adaptive ticks and timecode labels for the visible part of the media only. */
export class RulerLayer {
  readonly container = new Container();
  private readonly background = new Graphics();
  private readonly ticks = new Graphics();
  private readonly labels: BitmapText[] = [];
  /** Labels shown in the last frame (for tests: labels exist only for the visible region). */
  visibleLabels = 0;
  private backgroundKey = '';
  private ticksKey = '';

  constructor() {
    ensureFont();
    this.container.addChild(this.background, this.ticks);
  }

  update(v: RenderView) {
    const h = v.rulerHeight;
    // Geometry is rebuilt only when what it shows changed (a playhead move changes neither).
    const backgroundKey = `${v.width}:${h}`;
    if (backgroundKey !== this.backgroundKey) {
      this.backgroundKey = backgroundKey;
      this.background
        .clear()
        .rect(0, 0, v.width, h)
        .fill(COLORS.ruler)
        .rect(0, h - 1, v.width, 1)
        .fill(COLORS.tickMinor);
    }
    const ticksKey = `${v.width}:${v.viewStart}:${v.pxPerSecond}:${v.duration}:${v.fps}`;
    if (ticksKey === this.ticksKey) return;
    this.ticksKey = ticksKey;

    const clockWidth = 8 * LABEL_FONT.charWidth + 16;
    let choice = chooseTicks(v.pxPerSecond, v.fps, clockWidth);
    if (choice.showFrames) choice = chooseTicks(v.pxPerSecond, v.fps, 11 * LABEL_FONT.charWidth + 16);

    const viewEnd = Math.min(v.duration, v.viewStart + v.width / v.pxPerSecond);
    // One major step of slack on the left so a label whose tick just left the view still shows.
    const from = Math.max(0, v.viewStart - choice.major);
    const g = this.ticks.clear();
    if (choice.minor < choice.major) {
      for (const t of tickTimes(Math.max(0, v.viewStart), viewEnd, choice.minor)) {
        const x = Math.round(xOf(v, t));
        g.rect(x, h - 6, 1, 5);
      }
      g.fill(COLORS.tickMinor);
    }
    const majors = tickTimes(from, viewEnd, choice.major);
    for (const t of majors) g.rect(Math.round(xOf(v, t)), h - 13, 1, 12);
    if (majors.length) g.fill(COLORS.tickMajor);

    let used = 0;
    for (const t of majors) {
      const x = Math.round(xOf(v, t)) + 4;
      if (x > v.width) break;
      const label = this.label(used++);
      const text = choice.showFrames ? formatTimecode(t, v.fps) : formatClock(t);
      if (label.text !== text) label.text = text;
      label.position.set(x, 4);
      label.visible = true;
    }
    for (let i = used; i < this.labels.length; i++) this.labels[i]!.visible = false;
    this.visibleLabels = used;
  }

  // Labels come from a pool that only grows to the most ever visible at once.
  private label(i: number): BitmapText {
    let label = this.labels[i];
    if (!label) {
      label = new BitmapText({ text: '', style: { fontFamily: LABEL_FONT.name, fontSize: LABEL_FONT.size, fill: COLORS.label } });
      this.labels.push(label);
      this.container.addChild(label);
    }
    return label;
  }
}
