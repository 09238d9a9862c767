import { type Kysely, sql } from 'kysely';

/**
 * Transcript corrections. A segment's `text` stays the one column search indexes (its `tsv` is
 * generated from it), so a correction is what transcript search, the transcript file and SRT read
 * at once; `original_text` keeps what speech to text heard (null until the first correction). Every
 * change is a row of `transcript_corrections`: who (the account, and the support address when
 * impersonating), when, the old and the new text. A row outlives its segment (set null) so the
 * history stays when a media is transcribed again.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transcript_segments').addColumn('original_text', 'text').execute();
  await db.schema
    .createTable('transcript_corrections')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('segment_id', 'uuid', (c) => c.references('transcript_segments.id').onDelete('set null'))
    .addColumn('start', 'double precision', (c) => c.notNull())
    .addColumn('end', 'double precision', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('impersonated_by', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('old_text', 'text', (c) => c.notNull())
    .addColumn('new_text', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .execute();
  await db.schema.createIndex('transcript_corrections_media').on('transcript_corrections').columns(['media_id', 'created_at']).execute();
  await db.schema.createIndex('transcript_corrections_segment').on('transcript_corrections').column('segment_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transcript_corrections').execute();
  await db.schema.alterTable('transcript_segments').dropColumn('original_text').execute();
}
