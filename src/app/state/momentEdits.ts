import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import {
  API,
  HANDLE_MIN_SECONDS,
  MOMENT_TRIM_EDITS_MAX,
  MSG_MOMENT,
  type Moment,
  type MomentTrim,
  type MomentTrimEdit,
  type TrimRange,
} from '../../contract';
import { apiClient } from '../api/instance';
import { PreferencesSync } from './preferencesSync';
import { session } from './session';
import { showToast } from './toasts';
import { acknowledge, mergeTrims, withEdit, type TrimmedRange } from './trimMerge';
import { localStore } from './localStore';

/** A time range in seconds of a media. */
export type TimeRange = TrimRange;
export type { TrimmedRange };

/**
 * Trimmed moment ranges by moment id, kept with the account (issue 37, item 9: GET/POST
 * API.meTrims), so a trim made on one device is there on every other. A moment id names its media
 * and original range (contract `momentId`), so a trim follows the moment into every later search.
 * What a card shows, what the dialog loops and what a selection carries into downloads and merges is
 * `effectiveRange`.
 *
 * An edit shows at once and is kept on this device (local storage, per account) until the server has
 * it: made offline, it is sent when the connection is back, and merged there with what other
 * devices did meanwhile (each moment keeps the edit made last). The account's trims are read again
 * when the account signs in, the tab is shown again, or the connection comes back.
 */
export const momentEdits = proxy<{ byMoment: Record<string, TrimmedRange> }>({ byMoment: {} });

/** The account's trims as the server last answered, and this device's edits it has not acknowledged. */
let server: MomentTrim[] = [];
let pending: MomentTrimEdit[] = [];

const KEY_PREFIX = 'clipseek.momentTrims';
/** Before issue 37 trims lived only here, in this shape: they are sent to the account once. */
const LEGACY_PREFIX = 'clipseek.momentEdits';
const account = () => session.claims?.sub ?? 'anonymous';

const isRange = (r: unknown): r is TrimRange =>
  typeof r === 'object' &&
  r !== null &&
  Number.isFinite((r as TrimRange).startTime) &&
  Number.isFinite((r as TrimRange).endTime) &&
  (r as TrimRange).startTime < (r as TrimRange).endTime;
const isTime = (t: unknown): t is string => typeof t === 'string' && !Number.isNaN(Date.parse(t));
const isTrim = (t: Partial<MomentTrim>): t is MomentTrim =>
  typeof t.momentId === 'string' && isRange(t.originalTimestamps) && isRange(t.newTimestamps) && isTime(t.editedAt);
const isEdit = (e: Partial<MomentTrimEdit>): e is MomentTrimEdit =>
  typeof e.momentId === 'string' &&
  isRange(e.originalTimestamps) &&
  (e.newTimestamps === null || isRange(e.newTimestamps)) &&
  isTime(e.editedAt);

function show() {
  momentEdits.byMoment = mergeTrims(server, pending);
}

/** Keeps what this device knows; a refused write is not fatal while the server has (or will get) the edits. */
function persist() {
  try {
    const store = localStore();
    if (!store) return;
    if (server.length || pending.length) store.setItem(`${KEY_PREFIX}.${account()}`, JSON.stringify({ server, pending }));
    else store.removeItem(`${KEY_PREFIX}.${account()}`);
  } catch (e) {
    console.warn('Could not keep the moment trims on this device', e);
  }
}

/** (Re)reads the signed-in account's trims kept on this device, then the account's own; anything unreadable is dropped. */
export function loadMomentEdits() {
  server = [];
  pending = [];
  const store = localStore();
  try {
    const raw = JSON.parse(store?.getItem(`${KEY_PREFIX}.${account()}`) ?? '{}') as { server?: unknown; pending?: unknown };
    if (Array.isArray(raw.server)) server = (raw.server as Partial<MomentTrim>[]).filter(isTrim);
    if (Array.isArray(raw.pending)) pending = (raw.pending as Partial<MomentTrimEdit>[]).filter(isEdit);
  } catch {
    // Nothing kept, or storage is off: the account's trims arrive from the server.
  }
  try {
    const legacyKey = `${LEGACY_PREFIX}.${account()}`;
    const legacy = store?.getItem(legacyKey);
    if (legacy) {
      // Dated at the epoch: any trim the account holds for the same moment was made later and stays.
      const raw = JSON.parse(legacy) as Record<string, Partial<TrimmedRange>>;
      for (const [momentId, t] of Object.entries(raw))
        if (isRange(t.originalTimestamps) && isRange(t.newTimestamps) && !pending.some((e) => e.momentId === momentId))
          pending.push({
            momentId,
            originalTimestamps: t.originalTimestamps,
            newTimestamps: t.newTimestamps,
            editedAt: new Date(0).toISOString(),
          });
      store?.removeItem(legacyKey);
      persist();
    }
  } catch {
    // Unreadable: dropped.
  }
  show();
  if (session.token) {
    if (pending.length) sync.changed();
    else void fetchTrims();
  }
}

let generation = 0;

/** Reads the account's trims (another device may have changed them) and shows them with this device's edits. */
export async function fetchTrims() {
  if (!session.token || sync.busy) return;
  const mine = ++generation;
  try {
    const trims = await apiClient.request<MomentTrim[]>(API.meTrims, { method: 'GET', auth: 'required' });
    // An edit sent meanwhile answers with newer figures; an account change makes this one stale.
    if (mine !== generation || sync.busy) return;
    server = trims.filter(isTrim);
    persist();
    show();
  } catch (e) {
    console.warn('Could not read the moment trims', e);
  }
}

const sync = new PreferencesSync<MomentTrimEdit[]>(
  async (edits) => {
    const sent = edits.slice(0, MOMENT_TRIM_EDITS_MAX);
    const forAccount = account();
    generation++;
    const trims = await apiClient.request<MomentTrim[]>(API.meTrims, {
      method: 'POST',
      body: { edits: sent },
      auth: 'required',
      keepalive: true,
    });
    if (forAccount !== account()) return;
    server = trims.filter(isTrim);
    pending = acknowledge(pending, sent);
    persist();
    show();
    // More than one call's worth (a long time offline): the rest next.
    if (pending.length) queueMicrotask(() => sync.changed());
  },
  () => [...pending],
  // Kept on this device: sent with the next edit, when the connection is back, or at the next visit.
  (error) => console.warn('Could not save the moment trims to the account; they are kept here and sent later', error),
);

function record(edit: MomentTrimEdit) {
  pending = withEdit(pending, edit);
  persist();
  show();
  if (session.token) sync.changed();
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

const original = (moment: Moment): TrimRange => ({ startTime: moment.startTime, endTime: moment.endTime });

/**
 * Trims a moment to `range` inside its media of `mediaDuration` seconds. A range that is not a valid
 * moment (start before end, at least HANDLE_MIN_SECONDS, inside 0..duration) leaves the old range
 * and shows 'Failed to update moment'. Returns whether it took.
 */
export function updateMomentRange(moment: Moment, range: TimeRange, mediaDuration: number): boolean {
  const problem = rangeProblem(range, mediaDuration);
  if (problem) {
    console.warn(`Moment range rejected: ${problem}`);
    showToast(MSG_MOMENT.failedToUpdate, { tone: 'error' });
    return false;
  }
  const own = range.startTime === moment.startTime && range.endTime === moment.endTime;
  if (own && !momentEdits.byMoment[moment.id]) return true;
  record({
    momentId: moment.id,
    originalTimestamps: original(moment),
    newTimestamps: own ? null : { startTime: range.startTime, endTime: range.endTime },
    editedAt: new Date().toISOString(),
  });
  return true;
}

/** Gives a moment its own range back. */
export function resetMomentRange(moment: Moment): boolean {
  if (!momentEdits.byMoment[moment.id]) return true;
  record({ momentId: moment.id, originalTimestamps: original(moment), newTimestamps: null, editedAt: new Date().toISOString() });
  return true;
}

let loadedFor: string | null = session.claims?.sub ?? null;
loadMomentEdits();
// Trims belong to the account that made them.
subscribeKey(session, 'claims', (claims) => {
  // The same account with a refreshed token keeps what it has.
  if (claims?.sub === loadedFor) return;
  loadedFor = claims?.sub ?? null;
  loadMomentEdits();
});
if (typeof window !== 'undefined') {
  // Back online: what was edited offline goes up, and what other devices did comes down.
  window.addEventListener('online', () => (pending.length ? sync.changed() : void fetchTrims()));
  window.addEventListener('pagehide', () => sync.flushNow());
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void fetchTrims();
  });
}
