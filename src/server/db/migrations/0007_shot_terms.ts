import { type Kysely, sql } from 'kysely';

/**
 * The shot index for text search: each shot's best score per word it can be found by. A word
 * common to a quarter of a large library (say 'dog' or 'person') would otherwise make search touch
 * tens of thousands of keyframes; here the best shots for a word are one ordered index range. Rows
 * are written by ingest (and by a backfill at start for media indexed before this table existed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('shot_terms')
    .addColumn('library_id', 'uuid', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('shot_idx', 'integer', (c) => c.notNull())
    .addColumn('term', 'text', (c) => c.notNull())
    .addColumn('score', 'real', (c) => c.notNull())
    .execute();
  await sql`create index shot_terms_rank on shot_terms (library_id, term, score desc)`.execute(db);
  await db.schema.createIndex('shot_terms_media').on('shot_terms').columns(['media_id', 'shot_idx']).execute();
  await db.schema.createIndex('keyframes_shot').on('keyframes').columns(['media_id', 'shot_idx', 't']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('keyframes_shot').execute();
  await db.schema.dropTable('shot_terms').execute();
}
