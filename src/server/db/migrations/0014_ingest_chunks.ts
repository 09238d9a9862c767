import { type Kysely, sql } from 'kysely';

/**
 * Chunks of a long media's ingest (issue 41): a stage (keyframes, visual, speech) of a media longer
 * than a few minutes runs as one job per chunk of time, on whichever worker takes it. Each chunk's
 * row says how far it got and, once done, what it found (keyframe times and scores, words); the
 * stage's job merges them when every chunk is done, and records the stage's time as the sum of its
 * chunks' (`ms`, each chunk's run) and the merge's. Gone with the media.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('ingest_chunks')
    .addColumn('media_id', 'uuid', (c) => c.notNull().references('media.id').onDelete('cascade'))
    .addColumn('stage', 'text', (c) => c.notNull())
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('result', 'jsonb')
    .addColumn('ms', 'integer')
    .addColumn('done_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('ingest_chunks_pk', ['media_id', 'stage', 'idx'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('ingest_chunks').execute();
}
