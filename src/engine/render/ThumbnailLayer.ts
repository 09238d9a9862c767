import { Container, Graphics, ImageSource, Sprite, Texture, type Renderer } from 'pixi.js';
import { MSG_MOMENT, TIMELINE } from '../../contract';
import { centreOut, tilePrecision, visibleTiles } from '../kernels';
import { ThumbnailError, type ThumbnailSource } from '../thumbnailSource';
import { xOf, type RenderView } from './RenderView';
import { COLORS } from './theme';

interface Tile {
  index: number;
  sprite: Sprite;
  texture: Texture | null;
  controller: AbortController | null;
  state: 'waiting' | 'loading' | 'done' | 'failed';
}

export interface ThumbnailStats {
  /** Tiles that exist now (visible ones only). */
  live: number;
  /** Requests started, still in flight, aborted, and pictures received, since creation. */
  requested: number;
  inFlight: number;
  aborted: number;
  received: number;
}

/**
 * The 90 px thumbnail row. Tiles are 140 px cells of the media at the current scale; only those
 * in view exist. Each live tile has at most one request in flight; tiles that leave the view abort
 * theirs and destroy their texture. A neutral placeholder shows until a picture arrives.
 */
export class ThumbnailLayer {
  readonly container = new Container();
  private readonly background = new Graphics();
  private readonly tileContainer = new Container();
  private readonly tiles = new Map<number, Tile>();
  private readonly spritePool: Sprite[] = [];
  private tileSeconds = 0;
  private errorReported = false;
  private destroyed = false;
  readonly stats: ThumbnailStats = { live: 0, requested: 0, inFlight: 0, aborted: 0, received: 0 };

  constructor(
    private readonly renderer: Renderer,
    private source: ThumbnailSource | null,
    private readonly invalidate: () => void,
    private readonly onError: (message: string) => void,
  ) {
    this.container.addChild(this.background, this.tileContainer);
  }

  /** Swaps the picture source; every tile asks the new one. */
  setSource(source: ThumbnailSource | null) {
    if (source === this.source) return;
    this.source = source;
    this.errorReported = false;
    for (const index of [...this.tiles.keys()]) this.retire(index);
    this.invalidate();
  }

  update(v: RenderView) {
    const top = v.rulerHeight;
    this.background.clear().rect(0, top, v.width, v.rowHeight).fill(COLORS.background);
    const w = TIMELINE.thumbnailFrameWidth;
    const span = visibleTiles(v.viewStart, v.width, v.pxPerSecond, v.duration, w);
    // A new scale means new cells: every tile's time changes.
    if (Math.abs(span.tileSeconds - this.tileSeconds) > 1e-9 * span.tileSeconds) {
      for (const index of [...this.tiles.keys()]) this.retire(index);
      this.tileSeconds = span.tileSeconds;
    }
    for (const index of [...this.tiles.keys()]) if (index < span.first || index > span.last) this.retire(index);

    const mediaRight = xOf(v, v.duration);
    for (let i = span.first; i <= span.last; i++) {
      let tile = this.tiles.get(i);
      if (!tile) {
        tile = { index: i, sprite: this.takeSprite(), texture: null, controller: null, state: 'waiting' };
        this.tiles.set(i, tile);
      }
      const x = Math.round(xOf(v, i * span.tileSeconds));
      const right = Math.min(Math.round(xOf(v, (i + 1) * span.tileSeconds)), Math.round(mediaRight));
      const sprite = tile.sprite;
      sprite.position.set(x, top + 1);
      // A 1 px gap between cells; the last one stops at the media's end.
      sprite.setSize(Math.max(1, right - x - 1), v.rowHeight - 2);
    }
    this.stats.live = this.tiles.size;
    this.pump(span.first, span.last, span.tileSeconds);
  }

  /** Aborts every request and frees every texture and sprite. */
  destroy() {
    this.destroyed = true;
    for (const index of [...this.tiles.keys()]) this.retire(index);
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
      tile.sprite.tint = 0xffffff;
      tile.state = 'done';
      this.invalidate();
      return;
    }
    tile.state = 'failed';
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
    if (!sprite.parent) this.tileContainer.addChild(sprite);
    return sprite;
  }

  private giveSprite(sprite: Sprite) {
    sprite.visible = false;
    this.spritePool.push(sprite);
  }
}
