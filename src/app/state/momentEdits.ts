import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { HANDLE_MIN_SECONDS, MSG_MOMENT, type Moment } from '../../contract';
import { session } from './session';
import { showToast } from './toasts';

/** A time range in seconds of a media. */
export interface TimeRange {
  startTime: number;
  endTime: number;
}

/** A moment's trim (spec section 3, Clip.modifications.trimmed): the range it came with and the one it has now. */
export interface TrimmedRange {
  originalTimestamps: TimeRange;
  newTimestamps: TimeRange;
}

/**
 * Trimmed moment ranges by moment id, kept in local storage per account. A moment id names its media
 * and original range (contract `momentId`), so a trim follows the moment into every later search.
 * What a card shows, what the dialog loops and what a selection carries into downloads and merges is
 * `effectiveRange`.
 */
export const momentEdits = proxy<{ byMoment: Record<string, TrimmedRange> }>({ byMoment: {} });

const KEY_PREFIX = 'clipseek.momentEdits';
const storageKey = () => `${KEY_PREFIX}.${session.claims?.sub ?? 'anonymous'}`;

const storage = (): Storage | null => {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
};

const isRange = (r: unknown): r is TimeRange =>
  typeof r === 'object' &&
  r !== null &&
  Number.isFinite((r as TimeRange).startTime) &&
  Number.isFinite((r as TimeRange).endTime) &&
  (r as TimeRange).startTime < (r as TimeRange).endTime;

/** (Re)reads the signed-in account's trims; anything unreadable is dropped. */
export function loadMomentEdits() {
  const byMoment: Record<string, TrimmedRange> = {};
  try {
    const raw = JSON.parse(storage()?.getItem(storageKey()) ?? '{}') as Record<string, Partial<TrimmedRange>>;
    for (const [id, t] of Object.entries(raw))
      if (isRange(t.originalTimestamps) && isRange(t.newTimestamps))
        byMoment[id] = { originalTimestamps: t.originalTimestamps, newTimestamps: t.newTimestamps };
  } catch {
    // Nothing stored, or storage is off: moments show their own ranges.
  }
  momentEdits.byMoment = byMoment;
}

/** Why a range cannot be a moment of a media `duration` seconds long, or null when it can. */
export function rangeProblem(range: TimeRange, duration: number): string | null {
  const { startTime, endTime } = range;
  if (!Number.isFinite(startTime) || !Number.isFinite(endTime)) return 'not a number';
  if (!(Number.isFinite(duration) && duration > 0)) return 'unknown media duration';
  if (startTime < 0 || endTime > duration) return 'outside the media';
  if (startTime >= endTime) return 'start not before end';
  // A hair of tolerance: a boundary typed to the hundredth may sit a float's width short.
  if (endTime - startTime < HANDLE_MIN_SECONDS - 1e-9) return 'shorter than the minimum';
  return null;
}

/** The range a moment plays, shows and is exported with: its trim, or its own range. */
export function effectiveRange(moment: Moment, byMoment: Readonly<Record<string, TrimmedRange>> = momentEdits.byMoment): TimeRange {
  const t = byMoment[moment.id];
  return t ? { ...t.newTimestamps } : { startTime: moment.startTime, endTime: moment.endTime };
}

/** The moment with its effective range (what a selection hands to downloads and merges). */
export function effectiveMoment(moment: Moment, byMoment: Readonly<Record<string, TrimmedRange>> = momentEdits.byMoment): Moment {
  const r = effectiveRange(moment, byMoment);
  return r.startTime === moment.startTime && r.endTime === moment.endTime ? moment : { ...moment, ...r };
}

function save(next: Record<string, TrimmedRange>): boolean {
  try {
    const store = storage();
    if (!store) throw new Error('Local storage is unavailable');
    if (Object.keys(next).length) store.setItem(storageKey(), JSON.stringify(next));
    else store.removeItem(storageKey());
  } catch (e) {
    console.warn('Could not save the moment range', e);
    return false;
  }
  momentEdits.byMoment = next;
  return true;
}

/**
 * Trims a moment to `range` inside its media of `mediaDuration` seconds. A range that is not a valid
 * moment (start before end, at least HANDLE_MIN_SECONDS, inside 0..duration), or one that cannot be
 * stored, leaves the old range and shows 'Failed to update moment'. Returns whether it took.
 */
export function updateMomentRange(moment: Moment, range: TimeRange, mediaDuration: number): boolean {
  const problem = rangeProblem(range, mediaDuration);
  const ok =
    problem === null &&
    save(
      range.startTime === moment.startTime && range.endTime === moment.endTime
        ? withoutMoment(moment.id)
        : {
            ...momentEdits.byMoment,
            [moment.id]: {
              originalTimestamps: { startTime: moment.startTime, endTime: moment.endTime },
              newTimestamps: { startTime: range.startTime, endTime: range.endTime },
            },
          },
    );
  if (problem) console.warn(`Moment range rejected: ${problem}`);
  if (!ok) showToast(MSG_MOMENT.failedToUpdate, { tone: 'error' });
  return ok;
}

function withoutMoment(id: string) {
  const next = { ...momentEdits.byMoment };
  delete next[id];
  return next;
}

/** Gives a moment its own range back. */
export function resetMomentRange(moment: Moment): boolean {
  if (!momentEdits.byMoment[moment.id]) return true;
  const ok = save(withoutMoment(moment.id));
  if (!ok) showToast(MSG_MOMENT.failedToUpdate, { tone: 'error' });
  return ok;
}

loadMomentEdits();
// Trims belong to the account that made them.
subscribeKey(session, 'claims', loadMomentEdits);
