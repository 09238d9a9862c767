import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** What the database refers to in the blob store: the orphan sweep keeps exactly these. */
export class BlobRefsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Of `keys`, those a media, an upload or a render row names. */
  async referencedKeys(keys: string[]): Promise<Set<string>> {
    if (!keys.length) return new Set();
    const rows = await this.db
      .selectFrom('media')
      .select('blob_key as key')
      .where('blob_key', 'in', keys)
      .union(this.db.selectFrom('uploads').select('blob_key as key').where('blob_key', 'in', keys))
      .union(this.db.selectFrom('renders').select('blob_key as key').where('blob_key', 'in', keys).$narrowType<{ key: string }>())
      .execute();
    return new Set(rows.map((r) => r.key));
  }

  /** Of `ids`, those of media rows that exist (whatever their status). */
  async existingMedia(ids: string[]): Promise<Set<string>> {
    if (!ids.length) return new Set();
    const rows = await this.db.selectFrom('media').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  /** Ids (ours and the store's) of uploads not finished yet: their partial files are not leftovers. */
  async openUploadIds(): Promise<Set<string>> {
    const rows = await this.db.selectFrom('uploads').select(['id', 'store_upload_id']).where('finished_at', 'is', null).execute();
    return new Set(rows.flatMap((r) => [r.id, ...(r.store_upload_id ? [r.store_upload_id] : [])]));
  }
}
