import { describe, expect, it } from 'vitest';
import { centreAt, centreExpression, clampCentre, clipCrop, cropFilter, cropSize, outputSize } from './cropWindow';

/** Evaluates the small subset of ffmpeg's expression language centreExpression writes (if, lt, arithmetic). */
function evaluate(expr: string, t: number): number {
  const js = expr.replace(/\bt\b/g, String(t)).replace(/if\(/g, 'iff(').replace(/lt\(/g, 'ltf(');
  const iff = (c: number, a: number, b: number) => (c ? a : b);
  const ltf = (a: number, b: number) => (a < b ? 1 : 0);
  return Function('iff', 'ltf', `return (${js});`)(iff, ltf) as number;
}

describe('crop window', () => {
  it('is the largest window of the aspect inside the picture, none when nothing is cropped', () => {
    expect(cropSize('9:16', 1280, 720)).toEqual({ width: expect.closeTo(0.31640625, 6), height: 1 });
    expect(cropSize('1:1', 1280, 720)).toEqual({ width: 0.5625, height: 1 });
    expect(cropSize('16:9', 720, 1280)).toEqual({ width: 1, height: expect.closeTo(0.31640625, 6) });
    expect(cropSize('16:9', 1280, 720)).toBeNull();
    expect(cropSize('source', 1280, 720)).toBeNull();
  });

  it('keeps the window inside the picture', () => {
    const size = { width: 0.25, height: 1 };
    expect(clampCentre({ x: 0.01, y: 0.9 }, size)).toEqual({ x: 0.125, y: 0.5 });
    expect(clampCentre({ x: 0.99, y: 0.5 }, size)).toEqual({ x: 0.875, y: 0.5 });
    expect(clampCentre({ x: 0.4, y: 0.5 }, size)).toEqual({ x: 0.4, y: 0.5 });
  });

  it('follows the path linearly, holds its ends and jumps at a step', () => {
    const path = [
      { t: 1, x: 0.2, y: 0.5 },
      { t: 3, x: 0.6, y: 0.5 },
      { t: 3, x: 0.8, y: 0.4 },
      { t: 5, x: 0.8, y: 0.4 },
    ];
    expect(centreAt(path, 0).x).toBeCloseTo(0.2);
    expect(centreAt(path, 2).x).toBeCloseTo(0.4);
    expect(centreAt(path, 2.999).x).toBeCloseTo(0.6, 2);
    expect(centreAt(path, 3)).toEqual({ x: 0.8, y: 0.4 });
    expect(centreAt(path, 9)).toEqual({ x: 0.8, y: 0.4 });
    expect(centreAt([], 2)).toEqual({ x: 0.5, y: 0.5 });
  });

  it('writes the same path as an ffmpeg expression of the segment time', () => {
    const path = [
      { t: 1, x: 0.2, y: 0.5 },
      { t: 3, x: 0.6, y: 0.5 },
      { t: 3, x: 0.8, y: 0.4 },
      { t: 5, x: 0.8, y: 0.4 },
      { t: 40, x: 0.3, y: 0.4 },
    ];
    // A segment from media time 2 holding media 2..4.
    const expr = centreExpression(path, 'x', 2, 2, 4);
    for (const media of [2, 2.5, 2.99, 3, 3.5, 4]) expect(evaluate(expr, media - 2)).toBeCloseTo(centreAt(path, media).x, 6);
    // Points far from the segment are left out.
    expect(expr).not.toContain('40');
    expect(centreExpression([{ t: 0, x: 0.3, y: 0.5 }], 'x', 10, 10, 12)).toBe('0.3');
  });

  it('fixes the window where the user put it, else follows the path, else centres it', () => {
    const size = { width: 0.5, height: 1 };
    expect(clipCrop(size, { x: 0.9, y: 0.5 }, [{ t: 0, x: 0.3, y: 0.5 }]).points).toEqual([{ t: 0, x: 0.75, y: 0.5 }]);
    expect(clipCrop(size, undefined, [{ t: 2, x: 0.3, y: 0.5 }]).points).toEqual([{ t: 2, x: 0.3, y: 0.5 }]);
    expect(clipCrop(size, undefined, undefined).points).toEqual([{ t: 0, x: 0.5, y: 0.5 }]);
  });

  it('scales to an even size of the aspect and crops within the picture', () => {
    expect(outputSize('9:16', 720)).toEqual({ width: 406, height: 720 });
    expect(outputSize('4:5', 720)).toEqual({ width: 576, height: 720 });
    const filter = cropFilter(clipCrop({ width: 0.3, height: 1 }, { x: 0.2, y: 0.5 }, undefined), 4, 4, 6, { width: 406, height: 720 });
    expect(filter).toContain("x='clip((0.2)*iw-ow/2,0,iw-ow)'");
    expect(filter).toContain('scale=406:720');
  });
});
