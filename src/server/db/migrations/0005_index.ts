import { type Kysely, sql } from 'kysely';

/** What ingest produces: per-stage state, shots, keyframes with features, transcript segments. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists vector`.execute(db);
  await db.schema
    .alterTable('media')
    .addColumn('ingest', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"done":[]}'::jsonb`))
    .execute();

  await db.schema
    .createTable('shots')
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('start', 'double precision', (c) => c.notNull())
    .addColumn('end', 'double precision', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addPrimaryKeyConstraint('shots_pk', ['media_id', 'idx'])
    .execute();

  await db.schema
    .createTable('keyframes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('library_id', 'uuid', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
    .addColumn('t', 'double precision', (c) => c.notNull())
    .addColumn('shot_idx', 'integer', (c) => c.notNull())
    .addColumn('objects', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('classes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('colours', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('ocr', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('terms', sql`tsvector`)
    .addColumn('embedding', sql`vector(1280)`)
    .addColumn('clip', sql`vector(512)`)
    .execute();
  await db.schema.createIndex('keyframes_media').on('keyframes').columns(['media_id', 't']).execute();
  await db.schema.createIndex('keyframes_library').on('keyframes').column('library_id').execute();
  await sql`create index keyframes_terms on keyframes using gin (terms)`.execute(db);
  await sql`create index keyframes_embedding on keyframes using hnsw (embedding vector_cosine_ops)`.execute(db);

  await db.schema
    .createTable('transcript_segments')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('library_id', 'uuid', (c) => c.notNull().references('libraries.id').onDelete('cascade'))
    .addColumn('start', 'double precision', (c) => c.notNull())
    .addColumn('end', 'double precision', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('speaker', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('words', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('tsv', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('english', text)`).stored())
    .execute();
  await db.schema.createIndex('transcript_media').on('transcript_segments').columns(['media_id', 'start']).execute();
  await sql`create index transcript_tsv on transcript_segments using gin (tsv)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['transcript_segments', 'keyframes', 'shots']) await db.schema.dropTable(t).execute();
  await db.schema.alterTable('media').dropColumn('ingest').execute();
}
