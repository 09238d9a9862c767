import type { Insertable, Kysely, Selectable } from 'kysely';
import type { DB, UploadsTable } from '../../db/schema';

export type UploadRow = Selectable<UploadsTable>;

export class UploadRepository {
  constructor(private readonly db: Kysely<DB>) {}

  create(values: Insertable<UploadsTable> & { id: string }) {
    return this.db.insertInto('uploads').values(values).returningAll().executeTakeFirstOrThrow();
  }

  byId(id: string) {
    return this.db.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirst();
  }

  openForMedia(mediaId: string) {
    return this.db.selectFrom('uploads').selectAll().where('media_id', '=', mediaId).where('finished_at', 'is', null).execute();
  }

  recordPart(uploadId: string, partNumber: number, size: number, etag: string | null) {
    return this.db
      .insertInto('upload_parts')
      .values({ upload_id: uploadId, part_number: partNumber, size_bytes: size, etag })
      .onConflict((oc) => oc.columns(['upload_id', 'part_number']).doUpdateSet({ size_bytes: size, etag }))
      .execute();
  }

  forgetPart(uploadId: string, partNumber: number) {
    return this.db.deleteFrom('upload_parts').where('upload_id', '=', uploadId).where('part_number', '=', partNumber).execute();
  }

  parts(uploadId: string) {
    return this.db.selectFrom('upload_parts').selectAll().where('upload_id', '=', uploadId).orderBy('part_number').execute();
  }

  /** Marks finished; false when another finish got there first. */
  async markFinished(id: string) {
    const r = await this.db
      .updateTable('uploads')
      .set({ finished_at: new Date() })
      .where('id', '=', id)
      .where('finished_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return !!r;
  }

  /** Clears `finished_at` of uploads marked finished before `before` whose media is still uploading; returns how many. */
  async reopenCutOffFinishes(before: Date) {
    const r = await this.db
      .updateTable('uploads')
      .set({ finished_at: null })
      .where('finished_at', '<', before)
      .where('media_id', 'in', (eb) => eb.selectFrom('media').select('id').where('status', '=', 'uploading'))
      .returning('id')
      .execute();
    return r.length;
  }

  expired(now: Date) {
    return this.db.selectFrom('uploads').selectAll().where('finished_at', 'is', null).where('expires_at', '<', now).execute();
  }

  delete(id: string) {
    return this.db.deleteFrom('uploads').where('id', '=', id).execute();
  }
}
