/**
 * Ruler ticks: the finest "nice" interval whose labels keep at least `minLabelPx` apart, and a
 * minor interval that divides it and keeps ticks at least `minTickPx` apart.
 */

export interface TickChoice {
  /** Seconds between labelled ticks. */
  major: number;
  /** Seconds between small ticks (divides major; equals major when none fit). */
  minor: number;
  /** Labels need frames (HH:MM:SS:FF) because the major interval is under a second. */
  showFrames: boolean;
}

const SECOND_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 43200, 86400];

/** Candidate intervals in seconds, finest first: frame multiples below a second, then clock steps. */
export function tickCandidates(fps: number): number[] {
  const whole = Math.round(fps);
  const frameSteps = [1, 2, 5, 10].filter((f) => f < fps);
  // Half and quarter seconds read well on the ruler when the rate divides evenly.
  if (Math.abs(fps - whole) < 1e-9) {
    for (const div of [4, 2]) if (whole % div === 0 && whole / div > 10 && !frameSteps.includes(whole / div)) frameSteps.push(whole / div);
  }
  return [...frameSteps.sort((a, b) => a - b).map((f) => f / fps), ...SECOND_STEPS];
}

/** The tick intervals for a scale (px per second). */
export function chooseTicks(pxPerSecond: number, fps: number, minLabelPx: number, minTickPx = 8): TickChoice {
  const candidates = tickCandidates(fps);
  const major = candidates.find((c) => c * pxPerSecond >= minLabelPx) ?? candidates[candidates.length - 1]!;
  let minor = major;
  for (const c of candidates) {
    if (c >= major) break;
    const ratio = major / c;
    if (c * pxPerSecond >= minTickPx && Math.abs(ratio - Math.round(ratio)) < 1e-6) {
      minor = c;
      break;
    }
  }
  return { major, minor, showFrames: major < 1 - 1e-9 };
}

/** Tick times of `step` between `from` and `to` inclusive (at most `limit`, a guard against bad input). */
export function tickTimes(from: number, to: number, step: number, limit = 10_000): number[] {
  const out: number[] = [];
  if (!(step > 0) || !(to >= from)) return out;
  const first = Math.ceil(from / step - 1e-9);
  for (let i = first; out.length < limit; i++) {
    const t = i * step;
    if (t > to + 1e-9) break;
    out.push(t);
  }
  return out;
}
