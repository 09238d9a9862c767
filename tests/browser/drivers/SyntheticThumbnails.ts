import { ThumbnailError, type ThumbnailRequest, type ThumbnailSource } from '../../../src/engine/thumbnailSource';
import { formatTimecode } from '../../../src/engine/kernels';

export interface SyntheticThumbnailOptions {
  /** Milliseconds before each picture (0: next microtask). */
  latencyMs?: number;
  /** Fail every request with a ThumbnailError carrying this message. */
  failWith?: string;
  /** Pictures kept; older ones are closed, as the real image cache does. */
  cacheSize?: number;
  frameRate?: number;
}

/**
 * A ThumbnailSource that draws the requested time on an OffscreenCanvas and hands back
 * `transferToImageBitmap()`, with a small cache that closes evicted bitmaps like the real one.
 * It records every request and abort for tests.
 */
export class SyntheticThumbnails implements ThumbnailSource {
  readonly requests: { time: number; precision: ThumbnailRequest['precision'] }[] = [];
  aborted = 0;
  inFlight = 0;
  destroyed = false;
  private readonly cache = new Map<string, ImageBitmap>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private canvas: OffscreenCanvas | null = null;

  constructor(private readonly options: SyntheticThumbnailOptions = {}) {}

  get(request: ThumbnailRequest): Promise<ImageBitmap> {
    this.requests.push({ time: request.time, precision: request.precision });
    this.inFlight++;
    return new Promise<ImageBitmap>((resolve, reject) => {
      const finish = () => {
        this.inFlight--;
        request.signal.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.aborted++;
        finish();
        reject(new DOMException('aborted', 'AbortError'));
      };
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        finish();
        if (this.options.failWith) return reject(new ThumbnailError(this.options.failWith));
        resolve(this.picture(request));
      }, this.options.latencyMs ?? 0);
      this.timers.add(timer);
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener('abort', onAbort);
    });
  }

  private picture(request: ThumbnailRequest): ImageBitmap {
    const key = `${request.time.toFixed(4)}:${request.precision}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const w = request.width * 2;
    const h = request.height * 2;
    this.canvas ??= new OffscreenCanvas(w, h);
    const canvas = this.canvas;
    canvas.width = w;
    canvas.height = h;
    const ctx = canvas.getContext('2d')!;
    // A hue that walks with time, so neighbouring tiles differ and misalignment shows.
    const hue = (request.time * 7) % 360;
    ctx.fillStyle = `hsl(${hue} 45% 32%)`;
    ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = 'rgba(255,255,255,0.5)';
    ctx.lineWidth = 2;
    ctx.strokeRect(1, 1, w - 2, h - 2);
    ctx.fillStyle = '#fff';
    ctx.font = '600 24px monospace';
    ctx.fillText(formatTimecode(request.time, this.options.frameRate ?? 30), 12, 40);
    ctx.font = '20px monospace';
    ctx.fillText(request.precision, 12, 76);
    const bitmap = canvas.transferToImageBitmap();
    this.cache.set(key, bitmap);
    const max = this.options.cacheSize ?? 64;
    while (this.cache.size > max) {
      const [oldKey, old] = this.cache.entries().next().value as [string, ImageBitmap];
      this.cache.delete(oldKey);
      old.close();
    }
    return bitmap;
  }

  destroy(): void {
    this.destroyed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const b of this.cache.values()) b.close();
    this.cache.clear();
  }
}
