import { isLaterEdit, type MomentTrim, type MomentTrimEdit, type TrimRange } from '../../contract';

/** A moment's trim as screens use it (spec section 3, Clip.modifications.trimmed). */
export interface TrimmedRange {
  originalTimestamps: TrimRange;
  newTimestamps: TrimRange;
}

/**
 * The trims a device shows: the account's (as the server last answered) with this device's edits
 * not yet acknowledged laid over them, each moment by its later edit (last writer wins).
 */
export function mergeTrims(server: readonly MomentTrim[], pending: readonly MomentTrimEdit[]): Record<string, TrimmedRange> {
  const latest = new Map<string, { editedAt: string; trim: TrimmedRange | null }>();
  for (const t of server)
    latest.set(t.momentId, { editedAt: t.editedAt, trim: { originalTimestamps: t.originalTimestamps, newTimestamps: t.newTimestamps } });
  for (const e of pending)
    if (isLaterEdit(e, latest.get(e.momentId)))
      latest.set(e.momentId, {
        editedAt: e.editedAt,
        trim: e.newTimestamps ? { originalTimestamps: e.originalTimestamps, newTimestamps: e.newTimestamps } : null,
      });
  const out: Record<string, TrimmedRange> = {};
  for (const [id, { trim }] of latest)
    if (trim) out[id] = { originalTimestamps: { ...trim.originalTimestamps }, newTimestamps: { ...trim.newTimestamps } };
  return out;
}

/** The edits still to send once `sent` were acknowledged: one per moment, the latest (edits made meanwhile stay). */
export function withEdit(pending: readonly MomentTrimEdit[], edit: MomentTrimEdit): MomentTrimEdit[] {
  return [...pending.filter((e) => e.momentId !== edit.momentId), edit];
}

/** What is left to send after the server took `sent`: the edits made while it was on its way. */
export const acknowledge = (pending: readonly MomentTrimEdit[], sent: readonly MomentTrimEdit[]) =>
  pending.filter((e) => !sent.some((s) => s.momentId === e.momentId && s.editedAt === e.editedAt));
