/** Time codes of moments (HH:MM:SS, section 5) and their lengths. */
const pad = (n: number) => String(n).padStart(2, '0');

export function formatTimecode(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** A moment's length: tenths under 10 s ("4.5s"), whole seconds above ("12s", "1m 05s"). */
export function formatMomentLength(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 10) return `${Math.round(s * 10) / 10}s`;
  if (s < 60) return `${Math.round(s)}s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
}
