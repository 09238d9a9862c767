import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { FramingKeyframe, FramingShot } from './framing';

/** What the automatic framing reads of ingest's index: the shots over a range and their keyframes' detections. */
export class FramingRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * The shots overlapping [start, end] and all the keyframes of those shots (those before `start`
   * too: where the subject was as the range begins). Without shots (an image), the keyframes near the range.
   */
  async subjects(mediaId: string, start: number, end: number): Promise<{ shots: FramingShot[]; keyframes: FramingKeyframe[] }> {
    const shots = await this.db
      .selectFrom('shots')
      .select(['idx', 'start', 'end'])
      .where('media_id', '=', mediaId)
      .where('end', '>=', start)
      .where('start', '<=', end)
      .orderBy('idx')
      .execute();
    const rows = await this.db
      .selectFrom('keyframes')
      .select(['t', 'shot_idx', 'objects'])
      .where('media_id', '=', mediaId)
      .$call((q) =>
        shots.length
          ? q.where(
              'shot_idx',
              'in',
              shots.map((s) => s.idx),
            )
          : q.where('t', '>=', start - 2).where('t', '<=', end + 2),
      )
      .orderBy('t')
      .execute();
    return { shots, keyframes: rows.map((r) => ({ t: r.t, shotIdx: r.shot_idx, objects: r.objects })) };
  }
}
