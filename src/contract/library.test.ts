import { describe, expect, it } from 'vitest';
import { mediaCountLabel } from './library';

describe('mediaCountLabel', () => {
  it('counts videos and photos apart', () => {
    expect(mediaCountLabel(0)).toBe('0 videos');
    expect(mediaCountLabel(1)).toBe('1 video');
    expect(mediaCountLabel(3, 0)).toBe('3 videos');
    expect(mediaCountLabel(1, 1)).toBe('1 photo');
    expect(mediaCountLabel(2, 2)).toBe('2 photos');
    expect(mediaCountLabel(3, 1)).toBe('2 videos · 1 photo');
  });
});
