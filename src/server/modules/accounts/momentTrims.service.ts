import { MOMENT_TRIMS_KEPT, trimEditProblem, type MomentTrim, type MomentTrimEdit } from '../../../contract';
import { badRequest } from '../../errors';
import type { MomentTrimRow, MomentTrimsRepository } from './momentTrims.repository';

const toTrim = (r: MomentTrimRow): MomentTrim => ({
  momentId: r.moment_id,
  originalTimestamps: { startTime: r.original_start, endTime: r.original_end },
  newTimestamps: { startTime: r.start!, endTime: r.end! },
  editedAt: new Date(r.edited_at).toISOString(),
});

/**
 * Moment trims kept with the account (issue 37, item 9). Devices send the edits they made, online or
 * offline; each moment keeps the edit made last (last writer wins, by edit time). An edit time
 * ahead of the server's clock counts as now, so a device whose clock runs ahead cannot make its
 * edits outlast every later one. An account keeps its MOMENT_TRIMS_KEPT trims edited last.
 */
export class MomentTrimsService {
  constructor(
    private readonly repo: MomentTrimsRepository,
    private readonly now: () => Date = () => new Date(),
    /** Trims an account keeps (the ones edited last); the rest are dropped. */
    private readonly keep = MOMENT_TRIMS_KEPT,
  ) {}

  async list(userId: string): Promise<MomentTrim[]> {
    return (await this.repo.list(userId)).map(toTrim);
  }

  /** Applies `edits` (all or none: one bad edit refuses the call, naming it), then answers every trim. */
  async apply(userId: string, edits: readonly MomentTrimEdit[]): Promise<MomentTrim[]> {
    edits.forEach((e, i) => {
      const problem = trimEditProblem(e);
      if (problem) throw badRequest(`edits/${i}: ${problem}`);
    });
    const now = this.now().getTime();
    // The same moment twice in one call: the later edit is the one written.
    const latest = new Map<string, MomentTrimEdit>();
    for (const e of edits) {
      const had = latest.get(e.momentId);
      if (!had || Date.parse(e.editedAt) >= Date.parse(had.editedAt)) latest.set(e.momentId, e);
    }
    await this.repo.apply(
      userId,
      [...latest.values()].map((e) => ({
        momentId: e.momentId,
        originalStart: e.originalTimestamps.startTime,
        originalEnd: e.originalTimestamps.endTime,
        range: e.newTimestamps ? { start: e.newTimestamps.startTime, end: e.newTimestamps.endTime } : null,
        editedAt: new Date(Math.min(Date.parse(e.editedAt), now)),
      })),
    );
    // An account's trims stay bounded however many calls it makes.
    await this.repo.prune(userId, this.keep);
    return this.list(userId);
  }
}
