import { describe, expect, it } from 'vitest';
import { loadImage } from './images';

// A byte body: a string one would get text/plain by default.
const answer = (status: number, type: string | null) =>
  (async () => new Response(new Uint8Array([1]), { status, headers: type ? { 'content-type': type } : {} })) as unknown as typeof fetch;

describe('loading an image by URL', () => {
  it('gives the image as a file of its type', async () => {
    const file = await loadImage('/library/l/media/m/media/thumbnail.webp?token=t', answer(200, 'image/webp'));
    expect(file.type).toBe('image/webp');
    expect(file.name).toBe('thumbnail.webp');
  });

  it("says 'Failed to load image: {status}' when refused or unreachable", async () => {
    await expect(loadImage('/a.png', answer(404, 'application/json'))).rejects.toThrow('Failed to load image: 404');
    const offline = (async () => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    await expect(loadImage('/a.png', offline)).rejects.toThrow('Failed to load image: network error');
  });

  it('refuses an answer that is not an image, or has no type', async () => {
    await expect(loadImage('/a.png', answer(200, 'text/html'))).rejects.toThrow('Unsupported response content type: text/html');
    await expect(loadImage('/a.png', answer(200, null))).rejects.toThrow('Missing response content type');
  });
});
