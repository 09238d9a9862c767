/** Reading the time codes of moments (HH:MM:SS, section 5); they are printed by ui/format. */

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
