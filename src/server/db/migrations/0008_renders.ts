import { type Kysely, sql } from 'kysely';

/**
 * Server renders (MP4 compilations, GIFs). One row per distinct request of a user (`request_key`),
 * so an identical request reuses the row and its output; the row id is the charge's idempotency
 * key. `render_slots` gates starts across every process: at most N running, M starts a second.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('renders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('request_key', 'text', (c) => c.notNull())
    .addColumn('spec', 'jsonb', (c) => c.notNull())
    .addColumn('watermark', 'boolean', (c) => c.notNull())
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('cost', 'integer', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('queued'))
    .addColumn('progress', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('blob_key', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('renders_request', ['user_id', 'request_key'])
    .execute();
  await db.schema.createIndex('renders_expiry').on('renders').column('expires_at').execute();
  await db.schema
    .createTable('render_slots')
    .addColumn('render_id', 'uuid', (c) => c.primaryKey())
    .addColumn('started_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`clock_timestamp()`))
    .addColumn('lease_until', 'timestamptz', (c) => c.notNull())
    .addColumn('released', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('render_slots').execute();
  await db.schema.dropTable('renders').execute();
}
