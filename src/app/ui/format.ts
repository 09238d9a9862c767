import prettyMs from 'pretty-ms';
import { formatClock } from '../../engine/kernels';

/**
 * The app's formats of durations, time codes and sizes, in one place. The spec fixes only HH:MM:SS;
 * the others are the app's own. pretty-ms prints media durations; the rest stay ours because no
 * package prints them (see the folder's README).
 */

/** HH:MM:SS, the time code of moments (spec section 5), from the engine's kernel. */
export { formatClock };

const pad = (n: number) => String(n).padStart(2, '0');

/** A media duration, rounded to the second: "1:02:03" from an hour on (hours past 24 stay hours), else "2:03". */
export const formatDuration = (seconds: number) =>
  prettyMs(Math.max(0, Math.round(seconds || 0)) * 1000, { colonNotation: true, secondsDecimalDigits: 0, hideYearAndDays: true });

/**
 * HH:MM:SS with the fraction a range boundary carries, to the hundredth and without trailing zeros
 * ("00:00:04.25", "00:00:04.5", "00:00:04"): what an edited boundary is shown and typed as.
 */
export function formatPreciseTimecode(seconds: number): string {
  const hundredths = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 100));
  const whole = formatClock(Math.floor(hundredths / 100));
  const fraction = hundredths % 100;
  return fraction ? `${whole}.${pad(fraction).replace(/0$/, '')}` : whole;
}

/** A moment's length: tenths under 10 s ("4.5s"), whole seconds above ("12s", "1m 05s"). */
export function formatMomentLength(seconds: number): string {
  const s = Math.max(0, seconds);
  if (s < 10) return `${Math.round(s * 10) / 10}s`;
  if (s < 60) return `${Math.round(s)}s`;
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m ${pad(whole % 60)}s`;
}

/** Time left of an upload or ingest: "45 s", "3 min", "1 h 5 min"; null when unknown. */
export function formatEta(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

const WHOLE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Processing or storage time in hours and minutes: '5 h 30 m', '42 m', '< 1 m' for a few seconds, '0 m' for none. */
export function formatHoursMinutes(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return '0 m';
  const minutes = Math.floor(seconds / 60);
  if (minutes === 0) return '< 1 m';
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return `${m} m`;
  return m === 0 ? `${WHOLE.format(h)} h` : `${WHOLE.format(h)} h ${m} m`;
}

/** Hours with as much precision as small amounts need: '25 h', '1.25 h', '< 0.01 h'. */
export function formatHours(hours: number): string {
  if (!Number.isFinite(hours) || hours <= 0) return '0 h';
  if (hours < 0.01) return '< 0.01 h';
  const rounded = Number(hours.toFixed(hours < 10 ? 2 : 1));
  return `${rounded.toLocaleString('en-US')} h`;
}

/** Binary units labelled KB, MB, ..., one decimal under 10 ("3.4 MB", "120 KB"). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = Math.max(0, bytes || 0);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const shown = i === 0 || v >= 10 ? Math.round(v) : Math.round(v * 10) / 10;
  return `${shown} ${units[i]}`;
}
