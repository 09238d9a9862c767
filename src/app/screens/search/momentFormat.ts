/** Time codes of moments (HH:MM:SS, section 5) and their lengths. */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatTimecode(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/**
 * HH:MM:SS with the fraction a range boundary carries, to the hundredth and without trailing zeros
 * ("00:00:04.25", "00:00:04.5", "00:00:04"): what an edited boundary is shown and typed as.
 */
export function formatPreciseTimecode(seconds: number): string {
  const hundredths = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 100));
  const whole = formatTimecode(Math.floor(hundredths / 100));
  const fraction = hundredths % 100;
  return fraction ? `${whole}.${pad(fraction).replace(/0$/, '')}` : whole;
}

/**
 * Reads a time string (section 5): up to three colon-separated numeric parts (SS, MM:SS or
 * HH:MM:SS), the last with an optional fraction. Minutes and seconds below a larger unit stay under
 * 60. Null for anything else; clamping to the media is the caller's.
 */
export function parseTimecode(text: string): number | null {
  const m = /^(\d+)(?::(\d+))?(?::(\d+))?(\.\d+)?$/.exec(text.trim());
  if (!m) return null;
  const parts = [m[1], m[2], m[3]].filter((p): p is string => p !== undefined).map(Number);
  if (parts.slice(1).some((p) => p >= 60)) return null;
  const whole = parts.reduce((total, p) => total * 60 + p, 0);
  return whole + (m[4] ? Number(m[4]) : 0);
}

/** A moment's length: tenths under 10 s ("4.5s"), whole seconds above ("12s", "1m 05s"). */
export function formatMomentLength(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 10) return `${Math.round(s * 10) / 10}s`;
  if (s < 60) return `${Math.round(s)}s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
}
