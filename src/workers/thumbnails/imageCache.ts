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

interface Entry<T> {
  image: T;
  bytes: number;
  storedAt: number;
}

/**
 * The thumbnail image cache (spec section 9): byte-accounted at 4 bytes a pixel, entries live 10
 * minutes from when they were stored, a timer drops expired ones every 60 s, and going over 100 MB
 * evicts least-recently-used entries down to 80 %. Every image that leaves the cache is closed, so
 * decoded pixels are freed at once instead of waiting for GC.
 */
export class ImageCache<T extends CachedImage = ImageBitmap> {
  private readonly entries = new Map<string, Entry<T>>(); // insertion order = least recently used first
  private total = 0;
  private readonly timer: ReturnType<typeof setInterval>;
  private readonly maxBytes: number;
  private readonly ttlMs: number;
  private readonly evictTo: number;
  private readonly now: () => number;

  constructor(options: ImageCacheOptions = {}) {
    this.maxBytes = options.maxBytes ?? IMAGE_CACHE.maxBytes;
    this.ttlMs = options.ttlMs ?? IMAGE_CACHE.ttlMs;
    this.evictTo = this.maxBytes * (options.evictToRatio ?? IMAGE_CACHE.evictToRatio);
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.cleanup(), options.cleanupEveryMs ?? IMAGE_CACHE.cleanupEveryMs);
  }

  get bytes() {
    return this.total;
  }

  get size() {
    return this.entries.size;
  }

  /** The image under `key` (marking it most recently used), or undefined when absent or expired. */
  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.now() - entry.storedAt >= this.ttlMs) {
      this.remove(key, entry);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.image;
  }

  /** Stores `image` (closing any image it replaces) and evicts down to 80 % when over the maximum. */
  set(key: string, image: T): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.total -= old.bytes;
      if (old.image !== image) old.image.close();
    }
    const bytes = image.width * image.height * 4;
    this.entries.set(key, { image, bytes, storedAt: this.now() });
    this.total += bytes;
    if (this.total > this.maxBytes) {
      for (const [k, e] of this.entries) {
        if (this.total <= this.evictTo) break;
        this.remove(k, e);
      }
    }
  }

  /** Drops expired entries (run by the timer). */
  cleanup(): void {
    const now = this.now();
    for (const [k, e] of this.entries) if (now - e.storedAt >= this.ttlMs) this.remove(k, e);
  }

  /** Closes every image and stops the timer. */
  destroy(): void {
    clearInterval(this.timer);
    for (const [k, e] of this.entries) this.remove(k, e);
  }

  private remove(key: string, entry: Entry<T>) {
    this.entries.delete(key);
    this.total -= entry.bytes;
    entry.image.close();
  }
}
