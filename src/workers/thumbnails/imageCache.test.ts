import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_CACHE } from '../../contract';
import { ImageCache } from './imageCache';

const MB = 1024 * 1024;
/** A stand-in for an ImageBitmap: 1 MiB of pixels at 4 bytes each (512 x 512). */
const image = (width = 512, height = 512) => ({ width, height, close: vi.fn() });

describe('thumbnail image cache', () => {
  let cache: ImageCache<ReturnType<typeof image>>;
  beforeEach(() => {
    vi.useFakeTimers();
    cache = new ImageCache();
  });
  afterEach(() => {
    cache.destroy();
    vi.useRealTimers();
  });

  it('accounts bytes at 4 per pixel', () => {
    cache.set('a', image(140, 90));
    cache.set('b', image(280, 180));
    expect(cache.bytes).toBe(140 * 90 * 4 + 280 * 180 * 4);
  });

  it('evicts least recently used entries down to 80 % when over 100 MB, closing them', () => {
    const images = Array.from({ length: 100 }, () => image());
    images.forEach((img, i) => cache.set(`k${i}`, img));
    expect(cache.bytes).toBe(100 * MB);
    expect(images.some((i) => i.close.mock.calls.length > 0)).toBe(false);
    cache.get('k0'); // used again: now the most recent
    const extra = image();
    cache.set('k100', extra);
    expect(cache.bytes).toBeLessThanOrEqual(IMAGE_CACHE.maxBytes * IMAGE_CACHE.evictToRatio);
    expect(cache.bytes).toBe(80 * MB);
    // k1..k21 were the least recently used; k0 survived because it was just read.
    expect(cache.get('k0')).toBe(images[0]);
    for (let i = 1; i <= 21; i++) {
      expect(cache.get(`k${i}`)).toBeUndefined();
      expect(images[i]!.close).toHaveBeenCalledTimes(1);
    }
    expect(cache.get('k22')).toBe(images[22]);
    expect(cache.get('k100')).toBe(extra);
  });

  it('drops entries 10 minutes after they were stored, on the 60 s cleanup', () => {
    const old = image();
    cache.set('old', old);
    vi.advanceTimersByTime(IMAGE_CACHE.ttlMs - 60_000);
    const young = image();
    cache.set('young', young);
    vi.advanceTimersByTime(59_999);
    expect(old.close).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1); // the cleanup at 10:00 finds `old` at exactly its TTL
    expect(old.close).toHaveBeenCalledTimes(1);
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(MB);
    expect(young.close).not.toHaveBeenCalled();
  });

  it('does not hand out an expired entry between cleanups', () => {
    const img = image();
    cache.set('a', img);
    vi.setSystemTime(Date.now() + IMAGE_CACHE.ttlMs);
    expect(cache.get('a')).toBeUndefined();
    expect(img.close).toHaveBeenCalledTimes(1);
  });

  it('closes a replaced image, but not when the same image is stored again', () => {
    const a = image();
    cache.set('k', a);
    cache.set('k', a);
    expect(a.close).not.toHaveBeenCalled();
    cache.set('k', image());
    expect(a.close).toHaveBeenCalledTimes(1);
    expect(cache.bytes).toBe(MB);
  });

  it('destroy closes everything and stops the cleanup timer', () => {
    const imgs = [image(), image()];
    imgs.forEach((img, i) => cache.set(String(i), img));
    expect(vi.getTimerCount()).toBe(1);
    cache.destroy();
    expect(vi.getTimerCount()).toBe(0);
    imgs.forEach((img) => expect(img.close).toHaveBeenCalledTimes(1));
    expect(cache.bytes).toBe(0);
  });
});
