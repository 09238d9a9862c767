/** Timecodes: HH:MM:SS:FF, where FF is the frame within the second at the media's frame rate. */

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM:SS:FF for a time in seconds (negative and non-finite times read as 0). */
export function formatTimecode(seconds: number, fps: number): string {
  const t = Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
  // Work from the frame index so that frame boundaries never round into the previous frame.
  const frame = Math.floor(t * fps + 1e-6);
  let whole = Math.floor(frame / fps + 1e-9);
  let ff = frame - Math.ceil(whole * fps - 1e-9);
  if (ff < 0) {
    whole -= 1;
    ff = frame - Math.ceil(whole * fps - 1e-9);
  }
  const hh = Math.floor(whole / 3600);
  const mm = Math.floor((whole % 3600) / 60);
  const ss = whole % 60;
  return `${pad(hh)}:${pad(mm)}:${pad(ss)}:${pad(ff)}`;
}

/** HH:MM:SS without frames: ruler labels, and the app's time codes of moments (negative and non-finite read as 0). */
export function formatClock(seconds: number): string {
  const whole = Math.floor((Number.isFinite(seconds) ? Math.max(0, seconds) : 0) + 1e-6);
  return `${pad(Math.floor(whole / 3600))}:${pad(Math.floor((whole % 3600) / 60))}:${pad(whole % 60)}`;
}

/**
 * Parses 'HH:MM:SS:FF' (frames), or up to three colon-separated numbers with an optional fraction
 * on the last ('1:02:03.5', '2:03', '45.25'). Returns seconds clamped to [0, duration], or null
 * when the text is not a timecode.
 */
export function parseTimecode(text: string, fps: number, duration = Infinity): number | null {
  const s = text.trim();
  let seconds: number;
  const withFrames = /^(\d+):([0-5]?\d):([0-5]?\d):(\d+)$/.exec(s);
  if (withFrames) {
    const [, h, m, sec, f] = withFrames.map(Number) as [number, number, number, number, number];
    if (f >= Math.ceil(fps)) return null;
    seconds = h * 3600 + m * 60 + sec + f / fps;
  } else {
    const m = /^(?:(?:(\d+):)?([0-5]?\d):)?(\d+(?:\.\d*)?|\.\d+)$/.exec(s);
    if (!m) return null;
    const hours = m[1] === undefined ? 0 : Number(m[1]);
    const minutes = m[2] === undefined ? 0 : Number(m[2]);
    const secs = Number(m[3]);
    // Seconds may exceed 59 only when they are the whole input ('90' means 1:30).
    if (m[2] !== undefined && secs >= 60) return null;
    seconds = hours * 3600 + minutes * 60 + secs;
  }
  if (!Number.isFinite(seconds)) return null;
  return Math.min(duration, Math.max(0, seconds));
}
