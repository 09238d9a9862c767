import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, MomentTrimsTable } from '../../db/schema';

export type MomentTrimRow = Selectable<MomentTrimsTable>;

export interface MomentTrimWrite {
  momentId: string;
  originalStart: number;
  originalEnd: number;
  /** null: the moment has its own range again. */
  range: { start: number; end: number } | null;
  editedAt: Date;
}

/** The account's moment trims (migration 0011). */
export class MomentTrimsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The account's trims that hold a range (the moments given their own range back are left out). */
  list(userId: string): Promise<MomentTrimRow[]> {
    return this.db
      .selectFrom('moment_trims')
      .selectAll()
      .where('user_id', '=', userId)
      .where('start', 'is not', null)
      .orderBy('edited_at')
      .execute();
  }

  /** Writes each edit unless the moment already holds one made at the same time or later: the later edit stays. */
  async apply(userId: string, edits: readonly MomentTrimWrite[]): Promise<void> {
    if (!edits.length) return;
    await this.db
      .insertInto('moment_trims')
      .values(
        edits.map((e) => ({
          user_id: userId,
          moment_id: e.momentId,
          original_start: e.originalStart,
          original_end: e.originalEnd,
          start: e.range?.start ?? null,
          end: e.range?.end ?? null,
          edited_at: e.editedAt,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'moment_id'])
          .doUpdateSet({
            original_start: (eb) => eb.ref('excluded.original_start'),
            original_end: (eb) => eb.ref('excluded.original_end'),
            start: (eb) => eb.ref('excluded.start'),
            end: (eb) => eb.ref('excluded.end'),
            edited_at: (eb) => eb.ref('excluded.edited_at'),
            updated_at: sql`clock_timestamp()`,
          })
          .whereRef('moment_trims.edited_at', '<', 'excluded.edited_at'),
      )
      .execute();
  }

  /** Keeps the account's `keep` trims edited last (resets included) and deletes the rest; how many went. */
  async prune(userId: string, keep: number): Promise<number> {
    const kept = this.db
      .selectFrom('moment_trims')
      .select('moment_id')
      .where('user_id', '=', userId)
      .orderBy('edited_at', 'desc')
      .orderBy('moment_id', 'desc')
      .limit(keep);
    const gone = await this.db
      .deleteFrom('moment_trims')
      .where('user_id', '=', userId)
      .where('moment_id', 'not in', kept)
      .executeTakeFirst();
    return Number(gone.numDeletedRows);
  }
}
