import { Container, Graphics, Rectangle, Sprite, Texture } from 'pixi.js';
import type { RenderView } from '../render/RenderView';
import { COLORS } from '../render/theme';
import { clipStarts, type SequenceClip } from './sequenceModel';

const BLOCK_GAP = 2;

type PictureOf = (clip: SequenceClip, signal: AbortSignal) => Promise<ImageBitmap | HTMLImageElement>;

/**
 * The sequence's clips as blocks in the thumbnail row, each with its first-frame picture scaled to
 * the row and cropped to the block, and the drop marker while a clip is dragged. Geometry is rebuilt
 * only when the clips, the scale or the drop position changed; pictures are asked for once per clip
 * id and freed with the clip.
 */
export class ClipBlocksLayer {
  readonly container = new Container();
  private readonly blocks = new Graphics();
  private readonly pictures = new Container();
  /** Per clip: its sprite, the uploaded picture, and the view of it cropped to the block (no mask: masks cost a stencil pass each). */
  private readonly sprites = new Map<string, { sprite: Sprite; texture: Texture; crop: Texture | null }>();
  private readonly loading = new Set<string>();
  private key = '';
  private destroyed = false;

  constructor(
    private readonly pictureOf: PictureOf | null,
    private readonly onChange: () => void,
    private readonly signal: () => AbortSignal,
    /** Device pixels per CSS pixel of the canvas. */
    private readonly resolution = 1,
  ) {
    this.container.addChild(this.blocks, this.pictures);
  }

  get pictureCount(): number {
    return this.sprites.size;
  }

  update(v: RenderView, clips: readonly SequenceClip[], dropIndex: number | null) {
    const key = `${clips.map((c) => `${c.id}:${c.duration}`).join(',')}|${v.width}|${v.pxPerSecond}|${dropIndex}`;
    if (key === this.key) return;
    this.key = key;
    const g = this.blocks.clear();
    const top = v.rulerHeight;
    const h = v.rowHeight;
    const starts = clipStarts(clips);
    const live = new Set<string>();
    clips.forEach((clip, i) => {
      const x = starts[i]! * v.pxPerSecond;
      const w = Math.max(1, clip.duration * v.pxPerSecond - BLOCK_GAP);
      live.add(clip.id);
      // The block's colour only where its picture does not cover it: a software renderer pays for
      // every pixel drawn twice.
      const covered = this.place(clip, x, top + 4, w, h - 8);
      const color = i % 2 ? COLORS.placeholder : COLORS.ruler;
      if (covered > 0) {
        g.rect(x, top, w, 4).rect(x, top + h - 4, w, 4);
        if (w > covered) g.rect(x + covered, top + 4, w - covered, h - 8);
        g.fill(color);
      } else g.rect(x, top, w, h).fill(color);
      g.rect(x, top, w, 3).fill(COLORS.tickMajor);
    });
    if (dropIndex !== null) g.rect(Math.round(starts[dropIndex]! * v.pxPerSecond) - 2, top, 4, h).fill(COLORS.accentHover);
    for (const id of [...this.sprites.keys()]) if (!live.has(id)) this.drop(id);
  }

  private drop(id: string) {
    const p = this.sprites.get(id);
    if (!p) return;
    this.sprites.delete(id);
    p.sprite.destroy();
    p.crop?.destroy(false);
    p.texture.destroy(true);
  }

  /** Places the clip's picture in its block (x, y, w, h) and returns the width it covers (0: none yet). */
  private place(clip: SequenceClip, x: number, y: number, w: number, h: number): number {
    const picture = this.sprites.get(clip.id);
    if (picture) {
      const { sprite, texture } = picture;
      const scale = h / Math.max(1, texture.height);
      const width = Math.min(texture.width, Math.max(1, Math.floor(w / scale)));
      if (width !== (picture.crop?.frame.width ?? texture.width)) {
        picture.crop?.destroy(false);
        picture.crop =
          width < texture.width ? new Texture({ source: texture.source, frame: new Rectangle(0, 0, width, texture.height) }) : null;
        sprite.texture = picture.crop ?? texture;
      }
      sprite.scale.set(scale);
      sprite.position.set(x, y);
      sprite.visible = w > 8;
      return sprite.visible ? Math.min(w, width * scale) : 0;
    }
    if (!this.pictureOf || this.loading.has(clip.id)) return 0;
    this.loading.add(clip.id);
    this.pictureOf(clip, this.signal())
      .then((image) => atHeight(image, Math.round(h * this.resolution)))
      .then((image) => {
        this.loading.delete(clip.id);
        if (this.destroyed) {
          if ('close' in image) image.close();
          return;
        }
        const texture = Texture.from(image);
        // Drawn at its own size: one texel per pixel, no filtering.
        texture.source.scaleMode = 'nearest';
        const sprite = new Sprite(texture);
        this.pictures.addChild(sprite);
        this.sprites.set(clip.id, { sprite, texture, crop: null });
        this.key = '';
        this.onChange();
      })
      .catch(() => this.loading.delete(clip.id));
    return 0;
  }

  /** Frees every picture's sprite, mask and texture. */
  destroy() {
    this.destroyed = true;
    for (const id of [...this.sprites.keys()]) this.drop(id);
  }
}

/**
 * The picture resized once to the block's height in device pixels, by the browser's own resampler:
 * drawn 1:1 it stays sharp (a larger picture shrunk on the GPU without mipmaps aliases), and a
 * software renderer samples one texel per pixel. The original bitmap is closed; if it cannot be
 * resized, it is returned as it is.
 */
async function atHeight(image: ImageBitmap | HTMLImageElement, height: number): Promise<ImageBitmap | HTMLImageElement> {
  const h0 = 'naturalHeight' in image ? image.naturalHeight : image.height;
  const w0 = 'naturalWidth' in image ? image.naturalWidth : image.width;
  if (typeof createImageBitmap !== 'function' || !(h0 > 0) || !(w0 > 0) || h0 === height || !(height > 0)) return image;
  let resized: ImageBitmap;
  try {
    resized = await createImageBitmap(image, {
      resizeHeight: height,
      resizeWidth: Math.max(1, Math.round((w0 * height) / h0)),
      resizeQuality: 'high',
    });
  } catch {
    // Not resized (an image the browser will not copy): the picture is drawn scaled instead.
    return image;
  }
  if ('close' in image) image.close();
  return resized;
}
