import { Container, Graphics, ImageSource, Sprite, Texture, type Renderer } from 'pixi.js';
import { MSG_MOMENT, TIMELINE } from '../../contract';
import { centreOut, tilePrecision, visibleTiles } from '../kernels';
import { ThumbnailError, type ThumbnailSource } from '../thumbnailSource';
import { xOf, type RenderView } from './RenderView';
import { COLORS, SHADE_ALPHA } from './theme';

interface Tile {
  index: number;
  /** Media seconds the tile covers: [start, start + seconds). */
  start: number;
  seconds: number;
  sprite: Sprite;
  texture: Texture | null;
  controller: AbortController | null;
  state: 'waiting' | 'loading' | 'done' | 'failed';
  /** Wholly outside the moment range: drawn dimmed. */
  dim: boolean;
}

// Outside the moment range tiles are dimmed by tinting (free) rather than by a translucent layer
// over the row (a full-row blend costs milliseconds a frame on software GL).
const scale = (color: number, f: number) =>
  (Math.round(((color >> 16) & 0xff) * f) << 16) | (Math.round(((color >> 8) & 0xff) * f) << 8) | Math.round((color & 0xff) * f);
const DIM = 1 - SHADE_ALPHA;
const TINT = {
  picture: 0xffffff,
  pictureDim: scale(0xffffff, DIM),
  placeholder: COLORS.placeholder,
  placeholderDim: scale(COLORS.placeholder, DIM),
};

export interface ThumbnailStats {
  /** Tiles that exist now (visible ones only). */
  live: number;
  /** Requests started, still in flight, aborted, and pictures received, since creation. */
  requested: number;
  inFlight: number;
  aborted: number;
  received: number;
  /** Waiting for the scale to settle before asking for new cells. */
  settling: boolean;
}

/** After the scale changes, new pictures are asked for once it has been still this long. */
export const ZOOM_SETTLE_MS = 120;

/**
 * The 90 px thumbnail row. Tiles are 140 px cells of the media at the current scale; only those
 * in view exist. Each live tile has at most one request in flight; tiles that leave the view abort
 * theirs and destroy their texture. A neutral placeholder shows until a picture arrives.
 *
 * While zooming, every step changes every cell. Rather than ask for (and upload) a row of
 * pictures per wheel step, the previous pictures stay, stretched over the media they show, and the
 * new cells are asked for once the scale has settled; the stale pictures go when the new ones are in.
 */
export class ThumbnailLayer {
  readonly container = new Container();
  private readonly staleContainer = new Container();
  private readonly tileContainer = new Container();
  /** Shade over the outside part of the (at most two) tiles that straddle a range edge. */
  private readonly partialShade = new Graphics();
  private partialKey = '';
  private readonly tiles = new Map<number, Tile>();
  private stale: Tile[] = [];
  private settled = true;
  private cancelSettle: (() => void) | null = null;
  private readonly spritePool: Sprite[] = [];
  private tileSeconds = 0;
  private errorReported = false;
  private destroyed = false;
  readonly stats: ThumbnailStats = { live: 0, requested: 0, inFlight: 0, aborted: 0, received: 0, settling: false };

  constructor(
    private readonly renderer: Renderer,
    private source: ThumbnailSource | null,
    private readonly invalidate: () => void,
    private readonly onError: (message: string) => void,
    private readonly defer: (fn: () => void, ms: number) => () => void,
  ) {
    // No background of its own: the canvas is cleared to the row's colour (COLORS.background).
    this.container.addChild(this.staleContainer, this.tileContainer, this.partialShade);
  }

  /** Swaps the picture source; every tile asks the new one. */
  setSource(source: ThumbnailSource | null) {
    if (source === this.source) return;
    this.source = source;
    this.errorReported = false;
    for (const index of [...this.tiles.keys()]) this.retire(index);
    for (const tile of this.stale) this.dropStale(tile);
    this.stale = [];
    this.invalidate();
  }

  update(v: RenderView) {
    const top = v.rulerHeight;
    const w = TIMELINE.thumbnailFrameWidth;
    const span = visibleTiles(v.viewStart, v.width, v.pxPerSecond, v.duration, w);
    // A new scale means new cells: every tile's time changes.
    if (this.tileSeconds !== 0 && Math.abs(span.tileSeconds - this.tileSeconds) > 1e-9 * span.tileSeconds) {
      for (const tile of [...this.tiles.values()]) {
        if (tile.state === 'done') {
          this.tiles.delete(tile.index);
          this.stale.push(tile);
          this.staleContainer.addChild(tile.sprite);
        } else this.retire(tile.index);
      }
      this.settled = false;
      this.stats.settling = true;
      this.cancelSettle?.();
      this.cancelSettle = this.defer(() => {
        this.cancelSettle = null;
        this.settled = true;
        this.stats.settling = false;
        this.invalidate();
      }, ZOOM_SETTLE_MS);
    }
    this.tileSeconds = span.tileSeconds;
    for (const index of [...this.tiles.keys()]) if (index < span.first || index > span.last) this.retire(index);

    const mediaRight = Math.round(xOf(v, v.duration));
    const xs = v.range ? Math.round(xOf(v, v.range.start)) : -Infinity;
    const xe = v.range ? Math.round(xOf(v, v.range.end)) : Infinity;
    const partial: number[] = [];
    const place = (tile: Tile) => {
      const x = Math.round(xOf(v, tile.start));
      // A 1 px gap between cells; the last one stops at the media's end.
      const right = Math.min(Math.round(xOf(v, tile.start + tile.seconds)), mediaRight);
      tile.sprite.position.set(x, top + 1);
      tile.sprite.setSize(Math.max(1, right - x - 1), v.rowHeight - 2);
      tile.dim = right <= xs || x >= xe;
      if (!tile.dim) {
        if (x < xs) partial.push(x, xs);
        if (right > xe) partial.push(xe, right);
      }
      this.tint(tile);
      return { x, right };
    };
    // Stale pictures: drop those out of view, and the oldest beyond a few rows' worth.
    const cap = 3 * Math.max(1, span.last - span.first + 1);
    this.stale = this.stale.filter((tile, i) => {
      const { x, right } = place(tile);
      const keep = right > 0 && x < v.width && i >= this.stale.length - cap;
      if (!keep) this.dropStale(tile);
      return keep;
    });
    for (let i = span.first; i <= span.last; i++) {
      let tile = this.tiles.get(i);
      if (!tile) {
        tile = {
          index: i,
          start: i * span.tileSeconds,
          seconds: span.tileSeconds,
          sprite: this.takeSprite(),
          texture: null,
          controller: null,
          state: 'waiting',
          dim: false,
        };
        this.tiles.set(i, tile);
      }
      place(tile);
    }
    const partialKey = partial.join(',');
    if (partialKey !== this.partialKey) {
      this.partialKey = partialKey;
      const g = this.partialShade.clear();
      for (let i = 0; i < partial.length; i += 2) g.rect(partial[i]!, top, partial[i + 1]! - partial[i]!, v.rowHeight);
      if (partial.length) g.fill({ color: COLORS.shade, alpha: SHADE_ALPHA });
    }
    this.showTiles();
    this.stats.live = this.tiles.size;
    if (this.settled) this.pump(span.first, span.last, span.tileSeconds);
  }

  // Placeholders show only where no stale picture stands in; stale ones go once every cell is in.
  private showTiles() {
    let pending = false;
    for (const tile of this.tiles.values()) if (tile.state === 'waiting' || tile.state === 'loading') pending = true;
    if (!pending && this.settled && this.stale.length) {
      for (const tile of this.stale) this.dropStale(tile);
      this.stale = [];
    }
    const covered = this.stale.length > 0;
    for (const tile of this.tiles.values()) tile.sprite.visible = tile.state === 'done' || !covered;
  }

  private tint(tile: Tile) {
    const picture = tile.state === 'done';
    const tint = picture ? (tile.dim ? TINT.pictureDim : TINT.picture) : tile.dim ? TINT.placeholderDim : TINT.placeholder;
    if (tile.sprite.tint !== tint) tile.sprite.tint = tint;
  }

  private dropStale(tile: Tile) {
    tile.sprite.texture = Texture.WHITE;
    tile.texture?.destroy(true);
    tile.texture = null;
    this.giveSprite(tile.sprite);
  }

  /** Aborts every request and frees every texture and sprite. */
  destroy() {
    this.destroyed = true;
    this.cancelSettle?.();
    for (const index of [...this.tiles.keys()]) this.retire(index);
    for (const tile of this.stale) this.dropStale(tile);
    this.stale = [];
    for (const sprite of this.spritePool) sprite.destroy();
    this.spritePool.length = 0;
    this.container.destroy({ children: true, context: true });
  }

  private pump(first: number, last: number, tileSeconds: number) {
    const source = this.source;
    if (!source) return;
    for (const index of centreOut(first, last)) {
      const tile = this.tiles.get(index);
      if (!tile || tile.state !== 'waiting') continue;
      const controller = new AbortController();
      tile.controller = controller;
      tile.state = 'loading';
      this.stats.requested++;
      this.stats.inFlight++;
      let request: Promise<ImageBitmap>;
      try {
        request = source.get({
          time: index * tileSeconds,
          precision: tilePrecision(tileSeconds),
          width: TIMELINE.thumbnailFrameWidth,
          height: TIMELINE.thumbnailRowHeight,
          signal: controller.signal,
        });
      } catch (error) {
        request = Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      request.then(
        (bitmap) => this.settle(tile, controller, bitmap, null),
        (error: unknown) => this.settle(tile, controller, null, error),
      );
    }
  }

  private settle(tile: Tile, controller: AbortController, bitmap: ImageBitmap | null, error: unknown) {
    this.stats.inFlight--;
    // A late answer for a tile that left the view (or an engine that is gone) is dropped.
    if (this.destroyed || controller.signal.aborted || this.tiles.get(tile.index) !== tile) return;
    tile.controller = null;
    if (bitmap) {
      this.stats.received++;
      const texture = new Texture({ source: new ImageSource({ resource: bitmap, label: 'thumbnail' }) });
      // Upload now: the bitmap belongs to the source, which may close it once it leaves its cache.
      this.renderer.texture.initSource(texture.source);
      tile.texture = texture;
      tile.sprite.texture = texture;
      tile.state = 'done';
      this.tint(tile);
      this.showTiles();
      this.invalidate();
      return;
    }
    tile.state = 'failed';
    this.showTiles();
    this.invalidate();
    if ((error as { name?: string } | null)?.name === 'AbortError') return;
    if (!this.errorReported) {
      this.errorReported = true;
      this.onError(error instanceof ThumbnailError ? error.message : MSG_MOMENT.thumbnailFailed);
    }
  }

  private retire(index: number) {
    const tile = this.tiles.get(index);
    if (!tile) return;
    this.tiles.delete(index);
    if (tile.controller) {
      tile.controller.abort();
      this.stats.aborted++;
    }
    tile.sprite.texture = Texture.WHITE;
    tile.texture?.destroy(true);
    this.giveSprite(tile.sprite);
    this.stats.live = this.tiles.size;
  }

  private takeSprite(): Sprite {
    const sprite = this.spritePool.pop() ?? new Sprite(Texture.WHITE);
    sprite.texture = Texture.WHITE;
    sprite.tint = COLORS.placeholder;
    sprite.visible = true;
    if (sprite.parent !== this.tileContainer) this.tileContainer.addChild(sprite);
    return sprite;
  }

  private giveSprite(sprite: Sprite) {
    sprite.visible = false;
    this.spritePool.push(sprite);
  }
}
