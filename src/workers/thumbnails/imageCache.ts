import { LRUCache } from 'lru-cache';
import { IMAGE_CACHE } from '../../contract';

/** What the cache needs of a picture: its size (for byte accounting) and a close(). ImageBitmap fits. */
export interface CachedImage {
  readonly width: number;
  readonly height: number;
  close(): void;
}

export interface ImageCacheOptions {
  maxBytes?: number;
  ttlMs?: number;
  cleanupEveryMs?: number;
  evictToRatio?: number;
  now?: () => number;
}

const bytesOf = (image: CachedImage) => image.width * image.height * 4;

/**
 * The thumbnail image cache (spec section 9), an lru-cache: byte-accounted at 4 bytes a pixel,
 * entries live 10 minutes from when they were stored, a timer drops expired ones every 60 s, and
 * going over 100 MB evicts least-recently-used entries down to 80 % (the spec's rule, on top:
 * lru-cache alone evicts to just under its maximum). Every image that leaves the cache is closed, so
 * decoded pixels are freed at once instead of waiting for GC.
 */
export class ImageCache<T extends CachedImage = ImageBitmap> {
  private readonly lru: LRUCache<string, T>;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly maxBytes: number;
  private readonly evictTo: number;

  constructor(options: ImageCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? IMAGE_CACHE.maxBytes;
    this.evictTo = this.maxBytes * (options.evictToRatio ?? IMAGE_CACHE.evictToRatio);
    this.lru = new LRUCache<string, T>({
      maxSize: this.maxBytes,
      sizeCalculation: bytesOf,
      // lru-cache holds an entry stale once its age exceeds `ttl`; ours expire at the 10 minutes themselves.
      ttl: (options.ttlMs ?? IMAGE_CACHE.ttlMs) - 1,
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
      dispose: (image) => image.close(),
    });
    this.timer = setInterval(() => this.cleanup(), options.cleanupEveryMs ?? IMAGE_CACHE.cleanupEveryMs);
  }

  get bytes() {
    return this.lru.calculatedSize;
  }

  get size() {
    return this.lru.size;
  }

  /** The image under `key` (marking it most recently used), or undefined when absent or expired. */
  get(key: string): T | undefined {
    return this.lru.get(key);
  }

  /** Stores `image` (closing any image it replaces) and evicts down to 80 % when over the maximum. */
  set(key: string, image: T): void {
    const old = this.lru.peek(key, { allowStale: true });
    const over = this.lru.calculatedSize - (old ? bytesOf(old) : 0) + bytesOf(image) > this.maxBytes;
    this.lru.set(key, image);
    while (over && this.lru.calculatedSize > this.evictTo && this.lru.pop() !== undefined);
  }

  /** Drops expired entries (run by the timer). */
  cleanup(): void {
    this.lru.purgeStale();
  }

  /** Closes every image and stops the timer. */
  destroy(): void {
    clearInterval(this.timer);
    this.lru.clear();
  }
}
