import { type Kysely, sql } from 'kysely';

/**
 * Moment trims kept with the account (issue 37, item 9), one row per account and moment. A moment
 * given its own range back keeps its row with no range (`start`/`end` null), so that an older edit
 * arriving later from a device that was offline does not bring the trim back: each moment keeps the
 * edit with the latest `edited_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('moment_trims')
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('moment_id', 'text', (c) => c.notNull())
    .addColumn('original_start', 'double precision', (c) => c.notNull())
    .addColumn('original_end', 'double precision', (c) => c.notNull())
    .addColumn('start', 'double precision')
    .addColumn('end', 'double precision')
    .addColumn('edited_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addPrimaryKeyConstraint('moment_trims_pkey', ['user_id', 'moment_id'])
    .addCheckConstraint('moment_trims_range', sql`("start" is null) = ("end" is null) and ("start" is null or "start" < "end")`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('moment_trims').execute();
}
