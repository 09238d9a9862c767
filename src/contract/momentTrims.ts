import { HANDLE_MIN_SECONDS } from './timeline';

/**
 * Moment trims kept with the account (issue 37, item 9): a trim made on one device is there on every
 * other. A moment's id names its media and original range (`momentId`), so a trim follows the moment
 * into every later search. Devices send edits; each moment keeps the edit made last (by its edit time,
 * no later than the server's clock), so edits made offline merge with what other devices did meanwhile.
 */

/** A time range in seconds of a media. */
export interface TrimRange {
  startTime: number;
  endTime: number;
}

/** A moment's trim (Clip.modifications.trimmed of the spec) and when it was made. */
export interface MomentTrim {
  momentId: string;
  originalTimestamps: TrimRange;
  newTimestamps: TrimRange;
  /** ISO time the trim was made (on the device that made it). */
  editedAt: string;
}

/** A change of a moment's trim: a new range, or null to give the moment its own range back. */
export interface MomentTrimEdit {
  momentId: string;
  originalTimestamps: TrimRange;
  newTimestamps: TrimRange | null;
  editedAt: string;
}

/** Most edits one call carries (a device offline for long sends them in batches). */
export const MOMENT_TRIM_EDITS_MAX = 200;

/** Most trims an account keeps (resets included): past it, the ones edited longest ago are dropped. */
export const MOMENT_TRIMS_KEPT = 10_000;

/** Whether `edit` is newer than `than` (none, or made earlier): the one that stays. */
export const isLaterEdit = (edit: { editedAt: string }, than: { editedAt: string } | null | undefined) =>
  !than || Date.parse(edit.editedAt) > Date.parse(than.editedAt);

const rangeProblem = (r: TrimRange, name: string): string | null => {
  if (!Number.isFinite(r.startTime) || !Number.isFinite(r.endTime)) return `${name} must be numbers`;
  if (r.startTime < 0) return `${name} must not start before 0`;
  if (r.startTime >= r.endTime) return `${name} must start before it ends`;
  return null;
};

/** What is wrong with an edit as the server takes it (the media's length is the app's to check), or null. */
export function trimEditProblem(edit: MomentTrimEdit): string | null {
  if (Number.isNaN(Date.parse(edit.editedAt))) return 'editedAt must be a time';
  const original = rangeProblem(edit.originalTimestamps, 'originalTimestamps');
  if (original) return original;
  if (!edit.newTimestamps) return null;
  const trimmed = rangeProblem(edit.newTimestamps, 'newTimestamps');
  if (trimmed) return trimmed;
  // A hair of tolerance: a boundary typed to the hundredth may sit a float's width short.
  if (edit.newTimestamps.endTime - edit.newTimestamps.startTime < HANDLE_MIN_SECONDS - 1e-9)
    return `newTimestamps must be at least ${HANDLE_MIN_SECONDS} s long`;
  return null;
}
