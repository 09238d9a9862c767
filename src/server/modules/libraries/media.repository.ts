import { sql, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, MediaTable } from '../../db/schema';

export type MediaRow = Selectable<MediaTable>;

/** `= any(ids)` for a uuid column, the ids as one array parameter. */
const anyId = (ids: string[]) => sql<string>`any(${ids}::uuid[])`;

export type MediaSort = 'title' | 'modified' | 'added' | 'duration';

export class MediaRepository {
  constructor(private readonly db: Kysely<DB>) {}

  byId(id: string) {
    return this.db.selectFrom('media').selectAll().where('id', '=', id).executeTakeFirst();
  }

  inLibrary(libraryId: string, mediaId: string) {
    return this.db.selectFrom('media').selectAll().where('id', '=', mediaId).where('library_id', '=', libraryId).executeTakeFirst();
  }

  /**
   * Media by id. The ids go as one array parameter (`= any($1)`), not a list (`in ($1, …, $n)`):
   * one statement whatever their number, so on PGlite it is parsed and planned once
   * (namedStatements.ts) rather than once per list length; every search reads its page's media so.
   */
  manyById(ids: string[]) {
    if (!ids.length) return Promise.resolve([] as MediaRow[]);
    return this.db.selectFrom('media').selectAll().where('id', '=', anyId(ids)).execute();
  }

  manyInLibrary(libraryId: string, ids: string[]) {
    if (!ids.length) return Promise.resolve([] as MediaRow[]);
    return this.db.selectFrom('media').selectAll().where('library_id', '=', libraryId).where('id', '=', anyId(ids)).execute();
  }

  /** Visible files of a folder (status `empty` is hidden), sorted like the library page. */
  listFolder(folderId: string, sort: MediaSort = 'modified', direction: 1 | -1 = 1, range?: { start: number; end: number }) {
    const col = { title: 'name', modified: 'updated_at', added: 'created_at', duration: 'duration' } as const;
    // modified#1 ("modified first") means newest first; title#1 means A-Z; duration#1 shortest first.
    const ascending = sort === 'title' || sort === 'duration' ? direction === 1 : direction === -1;
    let q = this.db
      .selectFrom('media')
      .selectAll()
      .where('folder_id', '=', folderId)
      .where('status', '<>', 'empty')
      .orderBy(col[sort], (ob) => (ascending ? ob.asc().nullsFirst() : ob.desc().nullsLast()))
      .orderBy('id');
    if (range) q = q.offset(range.start).limit(Math.max(0, range.end - range.start));
    return q.execute();
  }

  /** Every media row (any status) in these folders. */
  inFolders(folderIds: string[]) {
    if (!folderIds.length) return Promise.resolve([] as MediaRow[]);
    return this.db.selectFrom('media').selectAll().where('folder_id', 'in', folderIds).execute();
  }

  byStatus(libraryId: string, statuses: string[]) {
    return this.db.selectFrom('media').selectAll().where('library_id', '=', libraryId).where('status', 'in', statuses).execute();
  }

  /** Live (non-empty) media with this fingerprint in the folder. */
  duplicateOf(folderId: string, uniqueId: string) {
    return this.db.selectFrom('media').selectAll().where('folder_id', '=', folderId).where('unique_id', '=', uniqueId).execute();
  }

  /** Inserts; returns undefined when the fingerprint is already live in the folder (the partial unique index decides). */
  async insert(values: Parameters<ReturnType<Kysely<DB>['insertInto']>['values']>[0] & object): Promise<MediaRow | undefined> {
    try {
      return await this.db
        .insertInto('media')
        .values(values as never)
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (err) {
      if ((err as { code?: string }).code === '23505') return undefined;
      throw err;
    }
  }

  update(id: string, patch: Updateable<MediaTable>) {
    return this.db
      .updateTable('media')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
  }

  /** Sets a media's progress unless it is already further (two ingest lanes report into one figure). */
  async raiseProgress(id: string, value: number) {
    await this.db
      .updateTable('media')
      .set({ progress: sql<number>`greatest(progress, ${value})`, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
  }

  /** Moves a media from one of `from` statuses to `to`; returns the row only if it was in one of them. */
  transition(id: string, from: string[], patch: Updateable<MediaTable>) {
    return this.db
      .updateTable('media')
      .set({ ...patch, updated_at: new Date() })
      .where('id', '=', id)
      .where('status', 'in', from)
      .returningAll()
      .executeTakeFirst();
  }

  deleteMany(ids: string[]) {
    if (!ids.length) return Promise.resolve([] as MediaRow[]);
    return this.db.deleteFrom('media').where('id', 'in', ids).returningAll().execute();
  }

  /** Storage in use by a user, in seconds of media (empty and failed uploads don't count). */
  /** The user's media whose indexing will still charge (queued or being indexed, not a shared copy). */
  async chargesPending(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('media')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .where('status', 'in', ['queued', 'processing'])
      .where('blob_shared', '=', false)
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  async usedSeconds(userId: string): Promise<number> {
    const r = await this.db
      .selectFrom('media')
      .select(sql<number>`coalesce(sum(duration), 0)::float8`.as('s'))
      .where('user_id', '=', userId)
      .where('status', 'not in', ['empty', 'invalid'])
      .where('blob_shared', '=', false)
      .executeTakeFirst();
    return Number(r?.s ?? 0);
  }
}
