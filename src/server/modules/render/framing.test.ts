import { describe, expect, it } from 'vitest';
import { capPoints, DEAD_ZONE, framingPath, MAX_SPEED, subjectAt, windowSize, type FramingInput } from './framing';

const person = (x1: number, x2: number, score = 0.9, y1 = 0.3, y2 = 0.9) => ({ label: 'person', score, box: [x1, y1, x2, y2] });
const thing = (label: string, x1: number, x2: number, score = 0.9) => ({ label, score, box: [x1, 0.4, x2, 0.6] });

/** A 16:9 video, one shot over [0, 10], keyframes every `step` seconds with `objects(t)`. */
function wide(objects: (t: number) => unknown[], o: Partial<FramingInput> = {}, step = 1): FramingInput {
  const keyframes = [];
  for (let t = 0; t <= 10 + 1e-9; t += step) keyframes.push({ t, shotIdx: 0, objects: objects(t) });
  return { aspect: '9:16', width: 1280, height: 720, start: 0, end: 10, keyframes, shots: [{ idx: 0, start: 0, end: 10 }], ...o };
}

/** The window's centre at `t` along `axis`, joined linearly (at a cut, the later point). */
function at(points: Array<{ t: number; x: number; y: number }>, t: number, axis: 'x' | 'y' = 'x') {
  let v = points[0]![axis];
  for (let i = 0; i < points.length; i++) {
    const p = points[i]!;
    if (p.t <= t) v = p[axis];
    const n = points[i + 1];
    if (n && p.t <= t && t < n.t) return p[axis] + ((n[axis] - p[axis]) * (t - p.t)) / (n.t - p.t);
  }
  return v;
}

describe('window size', () => {
  it('is the aspect as large as fits: narrower windows move in x, a phone video into 16:9 moves in y', () => {
    expect(windowSize('9:16', 1280, 720)).toEqual({ width: 9 / 16 / (16 / 9), height: 1 });
    expect(windowSize('1:1', 1280, 720).width).toBeCloseTo(0.5625);
    expect(windowSize('4:5', 1920, 1080).width).toBeCloseTo(0.45);
    expect(windowSize('16:9', 720, 1280)).toEqual({ width: 1, height: 9 / 16 / (16 / 9) });
    expect(windowSize('16:9', 1920, 1080)).toEqual({ width: 1, height: 1 });
    expect(windowSize('source', 720, 1280)).toEqual({ width: 1, height: 1 });
  });
});

describe('the subject of a keyframe', () => {
  it('is the people, the larger and more confident weighing more, before any other object', () => {
    const big = person(0.6, 0.8);
    const small = person(0.4, 0.45, 0.9, 0.5, 0.7);
    const v = subjectAt([thing('dog', 0, 0.1), big, small], 'x', 0.5)!;
    expect(v).toBeGreaterThan(0.6);
    expect(v).toBeLessThan(0.7);
    // a less confident box of the same size pulls less
    expect(subjectAt([person(0.1, 0.2, 0.9), person(0.3, 0.4, 0.3)], 'x', 0.5)!).toBeLessThan(0.25);
    // another object only when there is no person
    expect(subjectAt([thing('dog', 0.8, 0.9)], 'x', 0.3)).toBeCloseTo(0.85);
    expect(subjectAt([thing('dog', 0.8, 0.9, 0.2)], 'x', 0.3)).toBeNull();
    expect(subjectAt([], 'x', 0.3)).toBeNull();
  });

  it('leaves out people too far from the main one to share the window', () => {
    expect(subjectAt([person(0.05, 0.2), person(0.8, 0.9, 0.8)], 'x', 0.3)).toBeCloseTo(0.125);
  });

  it('along y, keeps a tall person’s head in the window', () => {
    const v = subjectAt([person(0.4, 0.6, 0.9, 0.1, 0.95)], 'y', 0.3)!;
    expect(v).toBeCloseTo(0.1 + 0.12);
  });
});

describe('framing path', () => {
  it('is centred, subject false, when nothing is found', () => {
    const a = framingPath(wide(() => [thing('cup', 0.1, 0.2, 0.1)]));
    expect(a.subject).toBe(false);
    expect(new Set(a.points.map((p) => p.x))).toEqual(new Set([0.5]));
  });

  it('answers the whole picture for the source aspect', () => {
    const a = framingPath(wide(() => [person(0.1, 0.2)], { aspect: 'source' }));
    expect(a).toMatchObject({ width: 1, height: 1, points: [{ t: 0, x: 0.5, y: 0.5 }] });
  });

  it('follows a subject walking across, keeping it in the window at every moment', () => {
    const walk = (t: number) => 0.1 + 0.08 * t;
    const a = framingPath(wide((t) => [person(walk(t) - 0.03, walk(t) + 0.03)], {}, 2));
    expect(a.subject).toBe(true);
    for (let t = 0; t <= 10; t += 0.1) {
      const x = at(a.points, t);
      const subject = Math.min(Math.max(walk(t), a.width / 2), 1 - a.width / 2);
      expect(Math.abs(x - subject)).toBeLessThan(a.width / 2 - 0.03);
    }
    expect(at(a.points, 10)).toBeGreaterThan(at(a.points, 0) + 0.5);
  });

  it('does not move while the subject stays inside the middle part of the window (no jitter)', () => {
    const a = framingPath(wide((t) => [person(0.48 + 0.02 * Math.sin(t * 3), 0.54 + 0.02 * Math.sin(t * 3))]));
    const xs = a.points.map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(0.002);
    expect(DEAD_ZONE * a.width).toBeGreaterThan(0.03);
  });

  it('does not jump inside a shot: a subject that reappears elsewhere is reached at bounded speed, eased', () => {
    const a = framingPath(wide((t) => [t < 5 ? person(0.1, 0.2) : person(0.75, 0.85)], {}, 0.5));
    for (let t = 0; t < 10; t += 0.05)
      expect(Math.abs(at(a.points, t + 0.05) - at(a.points, t))).toBeLessThanOrEqual(MAX_SPEED * 0.05 + 1e-3);
    // eased: the first tenth of a second of the move is slower than the middle of it
    const start = a.points.findIndex((p, i) => i > 0 && p.x > a.points[0]!.x + 1e-3) - 1;
    const t0 = a.points[start]!.t;
    expect(at(a.points, t0 + 0.1) - at(a.points, t0)).toBeLessThan(MAX_SPEED * 0.1 * 0.8);
    expect(at(a.points, 9.9)).toBeCloseTo(0.8, 2);
  });

  it('cuts at a shot change: two points at one time', () => {
    const input = wide((t) => [t < 5 ? person(0.1, 0.2) : person(0.8, 0.9)], {}, 0.5);
    input.shots = [
      { idx: 0, start: 0, end: 5 },
      { idx: 1, start: 5, end: 10 },
    ];
    input.keyframes = input.keyframes.map((k) => ({ ...k, shotIdx: k.t < 5 ? 0 : 1 }));
    const a = framingPath(input);
    const cut = a.points.filter((p) => p.t === 5);
    expect(cut).toHaveLength(2);
    expect(cut[0]!.x).toBeLessThan(0.3);
    expect(cut[1]!.x).toBeGreaterThan(0.7);
    // and inside each shot it holds still
    expect(at(a.points, 4.9)).toBeCloseTo(cut[0]!.x, 3);
    expect(at(a.points, 5.1)).toBeCloseTo(cut[1]!.x, 3);
  });

  it('starts where the subject is when the range begins inside a shot, and is only the range', () => {
    const a = framingPath(wide((t) => [person(0.05 + 0.08 * t, 0.15 + 0.08 * t)], { start: 6, end: 8 }, 2));
    expect(a.points[0]!.t).toBe(6);
    expect(a.points[a.points.length - 1]!.t).toBe(8);
    expect(at(a.points, 6)).toBeGreaterThan(0.45);
  });

  it('moves in y for a phone video into 16:9', () => {
    const a = framingPath({
      ...wide(() => [person(0.3, 0.7, 0.9, 0.05, 0.6)]),
      aspect: '16:9',
      width: 1080,
      height: 1920,
    });
    expect(a.width).toBe(1);
    expect(a.height).toBeCloseTo(0.3164, 3);
    expect(a.points.every((p) => p.x === 0.5)).toBe(true);
    // the head (top of the box) is inside the window
    const y = at(a.points, 5, 'y');
    expect(y - a.height / 2).toBeLessThan(0.1);
  });

  it('keeps the window inside the picture', () => {
    const a = framingPath(wide(() => [person(0.95, 1)]));
    expect(Math.max(...a.points.map((p) => p.x))).toBeCloseTo(1 - a.width / 2, 3);
  });
});

describe('capping the points', () => {
  it('keeps the path within a few points, its ends and its shape', () => {
    const a = framingPath(wide((t) => [person(0.1 + 0.07 * t + 0.1 * Math.sin(t * 2), 0.2 + 0.07 * t + 0.1 * Math.sin(t * 2))], {}, 0.5));
    const capped = capPoints(a.points, 6);
    expect(capped.length).toBeLessThanOrEqual(6);
    expect(capped[0]).toEqual(a.points[0]);
    expect(capped[capped.length - 1]).toEqual(a.points[a.points.length - 1]);
  });
});

describe('after the last keyframe', () => {
  it('takes the subject to keep going as it went, so it stays in the window to the shot’s end', () => {
    // keyframes at 0, 2, 4, 6 of an 8 s shot; the subject still walks after 6
    const walk = (t: number) => 0.1 + 0.09 * t;
    const input = wide((t) => [person(walk(t) - 0.03, walk(t) + 0.03)], { end: 8, shots: [{ idx: 0, start: 0, end: 8 }] }, 2);
    input.keyframes = input.keyframes.filter((k) => k.t <= 6);
    const a = framingPath(input);
    expect(Math.abs(at(a.points, 8) - Math.min(walk(8), 1 - a.width / 2))).toBeLessThan(a.width / 2 - 0.03);
  });

  it('but a subject standing still is not pushed anywhere', () => {
    const input = wide(() => [person(0.2, 0.3)], {}, 2);
    const a = framingPath(input);
    expect(at(a.points, 10)).toBeCloseTo(0.25, 3);
  });
});
