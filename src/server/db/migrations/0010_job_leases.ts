import { type Kysely, sql } from 'kysely';

/**
 * Job leases: which worker process runs which long job (ingest, render) and when it last said it
 * is alive. pg-boss 10 has no heartbeat, so a job whose worker died stays 'active' until its expiry
 * (30 minutes for ingest). With leases, any live worker hands such a job back within the lease's
 * time to live (src/server/jobs/leases.ts). No foreign key: pg-boss owns its own schema.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('job_id', 'uuid', (c) => c.primaryKey())
    .addColumn('queue', 'text', (c) => c.notNull())
    .addColumn('worker_id', 'text', (c) => c.notNull())
    .addColumn('renewed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('job_leases_renewed').on('job_leases').column('renewed_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
