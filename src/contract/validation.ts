import { PASSWORD_MIN_LENGTH } from './constants';
import { DEFAULT_UI_PREFERENCES, LAST_LIBRARIES_MAX, type UiPreferences } from './entities';

/** The simple {local}@{domain}.{tld} shape of spec section 5. */
export const isValidEmail = (email: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export interface PasswordCriteria {
  length: boolean;
  match: boolean;
}
export const passwordCriteria = (password: string, confirmation: string): PasswordCriteria => ({
  length: password.length >= PASSWORD_MIN_LENGTH,
  match: password.length > 0 && password === confirmation,
});
export const allCriteriaMet = (c: PasswordCriteria) => c.length && c.match;

/**
 * The saved path after sign-in is used only if same-origin, starts with '/', and contains none of
 * '//', '..' or a backslash (accounts spec section 4); otherwise /workspace.
 */
export function safeNextPath(next: string | null | undefined, fallback = '/workspace'): string {
  if (!next) return fallback;
  if (!next.startsWith('/') || next.includes('//') || next.includes('..') || next.includes('\\')) return fallback;
  try {
    const base = 'http://same.origin';
    const u = new URL(next, base);
    if (u.origin !== base) return fallback;
  } catch {
    return fallback;
  }
  return next;
}

type PrefKey = keyof UiPreferences;
/** Validates a partial settings object (preferences, lastLibraryIds); returns an error string naming the bad field or null. */
export function validatePreferences(input: unknown): string | null {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return 'settings must be an object';
  for (const [key, value] of Object.entries(input)) {
    if (key === 'lastLibraryIds') {
      const ok = Array.isArray(value) && value.length <= LAST_LIBRARIES_MAX && value.every((v) => typeof v === 'string' && v.length <= 64);
      if (!ok) return `lastLibraryIds must be a list of at most ${LAST_LIBRARIES_MAX} library ids`;
      continue;
    }
    if (!(key in DEFAULT_UI_PREFERENCES)) return `Unknown setting: ${key}`;
    const k = key as PrefKey;
    const def = DEFAULT_UI_PREFERENCES[k];
    if (k === 'libraryViewMode') {
      if (value !== 'list' && value !== 'grid') return 'libraryViewMode must be list or grid';
    } else if (Array.isArray(def)) {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string') || value.length > 32) return `${key} must be a list of strings`;
    } else if (typeof value !== typeof def) return `${key} must be a ${typeof def}`;
  }
  return null;
}

// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u001f\u007f]/g;
// eslint-disable-next-line no-control-regex
const CONTROLS_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `s` as the server's input guard accepts it (issue 36): control characters (but tab and line
 * breaks when `lines`) become spaces and lone surrogates U+FFFD; cut to `max` code points without
 * splitting a pair. For text the app passes on but did not type: a file's name, a crash report, a
 * title read from a link.
 */
export function sendableText(s: string, o: { lines?: boolean; max?: number } = {}): string {
  const clean = s.replace(o.lines ? CONTROLS_BUT_LINES : CONTROLS, ' ').replace(LONE_SURROGATE, '\ufffd');
  if (o.max === undefined || clean.length <= o.max) return clean;
  const cut = clean.slice(0, o.max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
