import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB, FoldersTable, LibrariesTable } from '../../db/schema';

export type LibraryRow = Selectable<LibrariesTable>;
export type FolderRow = Selectable<FoldersTable>;

export interface LibraryAggregates {
  count: number;
  mediaSize: number;
  mediaDuration: number;
  completed: number;
  photos: number;
  /** Completed media whose transcript has words. */
  withSpeech: number;
  latestMediaIds: string[];
  /** The latest media whose poster exists (ingest wrote its thumbnails), or null. */
  coverMediaId: string | null;
}

export class LibraryRepository {
  constructor(private readonly db: Kysely<DB>) {}

  listByUser(userId: string) {
    return this.db.selectFrom('libraries').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id').execute();
  }

  /** A library of this user, or undefined (other users' libraries are indistinguishable from missing ones). */
  byIdForUser(id: string, userId: string) {
    return this.db.selectFrom('libraries').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  /** Creates a library and its root folder in one transaction. */
  create(input: { userId: string; name: string; isDefault?: boolean; isDemo?: boolean; isReadOnly?: boolean }): Promise<LibraryRow> {
    return this.db.transaction().execute(async (trx) => {
      const lib = await trx
        .insertInto('libraries')
        .values({
          user_id: input.userId,
          name: input.name,
          is_default: input.isDefault ?? false,
          is_demo: input.isDemo ?? false,
          is_read_only: input.isReadOnly ?? false,
          settings: JSON.stringify({ v1: {} }),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const root = await trx
        .insertInto('folders')
        .values({ library_id: lib.id, parent_id: null, name: lib.name })
        .returning('id')
        .executeTakeFirstOrThrow();
      return trx
        .updateTable('libraries')
        .set({ root_folder_id: root.id })
        .where('id', '=', lib.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  rename(id: string, name: string) {
    return this.db
      .updateTable('libraries')
      .set({ name, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  touch(id: string) {
    return this.db.updateTable('libraries').set({ updated_at: new Date() }).where('id', '=', id).execute();
  }

  delete(id: string) {
    return this.db.deleteFrom('libraries').where('id', '=', id).execute();
  }

  /** Stats and latest media of libraries, computed from the media rows so they are right after every change. */
  async aggregates(libraryIds: string[]): Promise<Map<string, LibraryAggregates>> {
    const out = new Map<string, LibraryAggregates>();
    for (const id of libraryIds)
      out.set(id, {
        count: 0,
        mediaSize: 0,
        mediaDuration: 0,
        completed: 0,
        photos: 0,
        withSpeech: 0,
        latestMediaIds: [],
        coverMediaId: null,
      });
    if (!libraryIds.length) return out;
    const rows = await this.db
      .selectFrom('media')
      .select((eb) => [
        'library_id',
        eb.fn.countAll<number>().as('count'),
        sql<number>`coalesce(sum(size_bytes), 0)::float8`.as('size'),
        sql<number>`coalesce(sum(duration), 0)::float8`.as('duration'),
        sql<number>`count(*) filter (where status = 'completed')`.as('completed'),
        sql<number>`count(*) filter (where kind = 'image')`.as('photos'),
        // one index probe (transcript_media) per completed media
        sql<number>`count(*) filter (where status = 'completed' and exists (
          select 1 from transcript_segments s where s.media_id = media.id and s.text <> ''))`.as('with_speech'),
      ])
      .where('library_id', 'in', libraryIds)
      .where('status', '<>', 'empty')
      .groupBy('library_id')
      .execute();
    for (const r of rows)
      Object.assign(out.get(r.library_id)!, {
        count: Number(r.count),
        mediaSize: Number(r.size),
        mediaDuration: Number(r.duration),
        completed: Number(r.completed),
        photos: Number(r.photos),
        withSpeech: Number(r.with_speech),
      });
    // One pass over each library's media, newest first: the latest four, and the cover (the newest
    // with its thumbnails: ingest writes the poster before the strip's state, stage thumbnails).
    const ranked = await this.db
      .selectFrom((eb) =>
        eb
          .selectFrom('media')
          .select([
            'library_id',
            'id',
            sql<boolean>`ingest -> 'strip' is not null`.as('has_strip'),
            sql<number>`row_number() over (partition by library_id order by created_at desc, id desc)`.as('rn'),
            sql<number>`row_number() over (partition by library_id, ingest -> 'strip' is not null order by created_at desc, id desc)`.as(
              'strip_rn',
            ),
          ])
          .where('library_id', 'in', libraryIds)
          .where('status', '<>', 'empty')
          .as('m'),
      )
      .select(['library_id', 'id', 'has_strip', 'rn', 'strip_rn'])
      .where((eb) => eb.or([eb('rn', '<=', 4), eb.and([eb('has_strip', '=', true), eb('strip_rn', '=', 1)])]))
      .orderBy('library_id')
      .orderBy('rn')
      .execute();
    for (const r of ranked) {
      const agg = out.get(r.library_id)!;
      if (Number(r.rn) <= 4) agg.latestMediaIds.push(r.id);
      if (r.has_strip && Number(r.strip_rn) === 1) agg.coverMediaId = r.id;
    }
    return out;
  }

  folder(libraryId: string, folderId: string) {
    return this.db.selectFrom('folders').selectAll().where('id', '=', folderId).where('library_id', '=', libraryId).executeTakeFirst();
  }

  subFolders(libraryId: string, parentId: string) {
    return this.db
      .selectFrom('folders')
      .selectAll()
      .where('library_id', '=', libraryId)
      .where('parent_id', '=', parentId)
      .orderBy('created_at', 'asc')
      .orderBy('id')
      .execute();
  }

  createFolder(libraryId: string, parentId: string, name: string) {
    return this.db
      .insertInto('folders')
      .values({ library_id: libraryId, parent_id: parentId, name })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  renameFolder(id: string, name: string) {
    return this.db
      .updateTable('folders')
      .set({ name, updated_at: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Deletes a folder; its subfolders and their media rows go with it (foreign keys cascade). */
  deleteFolder(id: string) {
    return this.db.deleteFrom('folders').where('id', '=', id).execute();
  }

  /** A sibling folder with this name, compared without case (names are unique within a parent). */
  siblingNamed(libraryId: string, parentId: string, name: string) {
    return this.db
      .selectFrom('folders')
      .select('id')
      .where('library_id', '=', libraryId)
      .where('parent_id', '=', parentId)
      .where(sql<boolean>`lower(name) = lower(${name})`)
      .executeTakeFirst();
  }

  /** The folders above `folderId`, root first (the folder itself not included). */
  async ancestors(folderId: string): Promise<FolderRow[]> {
    const { rows } = await sql<FolderRow & { depth: number }>`
      with recursive up as (
        select f.*, 0 as depth from folders f where f.id = (select parent_id from folders where id = ${folderId})
        union all
        select p.*, up.depth + 1 from folders p join up on p.id = up.parent_id
      )
      select * from up order by depth desc`.execute(this.db);
    return rows.map(({ depth: _depth, ...f }) => f);
  }

  /** The ids of a folder and of every folder under it. */
  async subtreeIds(folderId: string): Promise<string[]> {
    const { rows } = await sql<{ id: string }>`
      with recursive down as (
        select id from folders where id = ${folderId}
        union all
        select f.id from folders f join down on f.parent_id = down.id
      )
      select id from down`.execute(this.db);
    return rows.map((r) => r.id);
  }

  /** For each child folder of `parentId`: the folders and visible media it holds at any depth. */
  async contentsOfChildren(parentId: string): Promise<Map<string, { folders: number; files: number }>> {
    const { rows } = await sql<{ top: string; folders: number; files: number }>`
      with recursive down as (
        select id as top, id from folders where parent_id = ${parentId}
        union all
        select down.top, f.id from folders f join down on f.parent_id = down.id
      )
      select down.top,
             (count(distinct down.id) - 1)::int as folders,
             count(m.id)::int as files
      from down left join media m on m.folder_id = down.id and m.status <> 'empty'
      group by down.top`.execute(this.db);
    return new Map(rows.map((r) => [r.top, { folders: Number(r.folders), files: Number(r.files) }]));
  }
}
