import { describe, expect, it } from 'vitest';
import { asImageDataUrl, isImageDataUrl, pickSearchImage } from './searchImage';

const f = (name: string, type = '') => ({ name, type });

describe('search image input', () => {
  it('takes the only image', () => {
    const dog = f('dog.jpg', 'image/jpeg');
    expect(pickSearchImage([dog])).toEqual({ file: dog, notice: null });
  });

  it('uses the first of several images and says so', () => {
    const a = f('a.png', 'image/png');
    expect(pickSearchImage([f('clip.mp4', 'video/mp4'), a, f('b.webp')])).toEqual({ file: a, notice: 'multiple' });
  });

  it('refuses files that are no image, and SVG', () => {
    expect(pickSearchImage([f('clip.mp4', 'video/mp4'), f('notes.txt', 'text/plain')])).toEqual({ file: null, notice: 'unsupported' });
    expect(pickSearchImage([f('logo.svg', 'image/svg+xml')])).toEqual({ file: null, notice: 'unsupported' });
    expect(pickSearchImage([f('drawing', 'image/svg+xml')]).notice).toBe('unsupported');
    expect(pickSearchImage([])).toEqual({ file: null, notice: null });
  });

  it('accepts only data:image/ URLs, never SVG', () => {
    expect(isImageDataUrl('data:image/png;base64,AAAA')).toBe(true);
    expect(isImageDataUrl('data:image/svg+xml;base64,AAAA')).toBe(false);
    expect(isImageDataUrl('https://example.com/a.png')).toBe(false);
    expect(isImageDataUrl('data:text/plain;base64,AAAA')).toBe(false);
    expect(isImageDataUrl(null)).toBe(false);
  });

  it('gives a typeless image file its type from the extension', () => {
    expect(asImageDataUrl('data:application/octet-stream;base64,QUJD', f('x.JPG'))).toBe('data:image/jpeg;base64,QUJD');
    expect(asImageDataUrl('data:image/png;base64,QUJD', f('x.png'))).toBe('data:image/png;base64,QUJD');
    expect(asImageDataUrl('data:application/octet-stream;base64,QUJD', f('x.bin'))).toBeNull();
  });
});
