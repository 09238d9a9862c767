import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per user: the lock every balance change takes, and the overdraft within the tolerance.
  await db.schema
    .createTable('credit_accounts')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('debt', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('credit_notes')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('original_amount', 'bigint', (c) => c.notNull())
    .addColumn('current_amount', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('invoice_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('credit_notes_user').on('credit_notes').columns(['user_id', 'expires_at']).execute();
  // Append-only: grants and charges, each with the idempotency key that makes retries harmless.
  await db.schema
    .createTable('credit_entries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('grant', 'charge')`))
    .addColumn('amount', 'bigint', (c) => c.notNull().check(sql`amount >= 0`))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('allocations', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('note_id', 'uuid')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('credit_entries_key', ['user_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('credit_entries_user_time').on('credit_entries').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['credit_entries', 'credit_notes', 'credit_accounts']) await db.schema.dropTable(t).execute();
}
