import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { SPOKEN_FORMS_VERSION, spokenForms } from '../ingest/spokenForms';

export interface SegmentRow {
  id: string;
  start: number;
  end: number;
  text: string;
  speaker: string;
  original_text: string | null;
  /** How many corrections (restores included) were recorded for it. */
  changes: number;
}

export interface CorrectionInput {
  mediaId: string;
  segmentId: string;
  /** The text to save; for 'restore', ignored: the segment's original text is put back. */
  text: string;
  kind: 'edit' | 'restore';
  userId: string;
  impersonatedBy: string | null;
}

const SEGMENT_COLUMNS = ['s.id', 's.start', 's.end', 's.text', 's.speaker', 's.original_text'] as const;
const changes = sql<number>`(select count(*)::int from transcript_corrections c where c.segment_id = s.id)`.as('changes');

/** A media's transcript segments as people read and correct them, and the record of their corrections. */
export class TranscriptRepository {
  constructor(private readonly db: Kysely<DB>) {}

  segments(mediaId: string): Promise<SegmentRow[]> {
    return this.db
      .selectFrom('transcript_segments as s')
      .select([...SEGMENT_COLUMNS, changes])
      .where('s.media_id', '=', mediaId)
      .orderBy('s.start')
      .execute();
  }

  /**
   * Sets a segment's text and records the change, in one transaction (the segment row locked, so
   * two saves at once are recorded in the order they were applied). The first correction keeps
   * the recogniser's text in `original_text`. Null when the media has no such segment; `changed`
   * false when the text was already that (nothing recorded).
   */
  async correct(input: CorrectionInput): Promise<{ segment: SegmentRow; changed: boolean } | null> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('transcript_segments as s')
        .select([...SEGMENT_COLUMNS, changes])
        .where('s.id', '=', input.segmentId)
        .where('s.media_id', '=', input.mediaId)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return null;
      const original = row.original_text ?? row.text;
      const text = input.kind === 'restore' ? original : input.text;
      if (text === row.text) return { segment: row, changed: false };
      await trx
        .updateTable('transcript_segments')
        .set({ text, original_text: original, spoken: spokenForms(text), spoken_version: SPOKEN_FORMS_VERSION })
        .where('id', '=', row.id)
        .execute();
      await trx
        .insertInto('transcript_corrections')
        .values({
          media_id: input.mediaId,
          segment_id: row.id,
          start: row.start,
          end: row.end,
          user_id: input.userId,
          impersonated_by: input.impersonatedBy,
          kind: input.kind,
          old_text: row.text,
          new_text: text,
        })
        .execute();
      const segment = { ...row, text, original_text: original, changes: row.changes + 1 };
      return { segment, changed: true };
    });
  }

  /** A media's corrections (or one segment's), newest first, with the account's address. */
  corrections(mediaId: string, segmentId?: string) {
    let q = this.db
      .selectFrom('transcript_corrections as c')
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .select([
        'c.id',
        'c.segment_id',
        'c.start',
        'c.end',
        'c.kind',
        'c.old_text',
        'c.new_text',
        'c.created_at',
        'c.impersonated_by',
        'u.email',
      ])
      .where('c.media_id', '=', mediaId)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(1000);
    if (segmentId) q = q.where('c.segment_id', '=', segmentId);
    return q.execute();
  }
}
