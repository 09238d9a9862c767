import { type Kysely, sql } from 'kysely';

/**
 * Transcript search by library through the index (issue 41): the tsvector's GIN index also keys the
 * library (btree_gin), so a library's segments saying a word are found in the index, not read from
 * the table and then dropped for being another library's. Measured on Debian's PostgreSQL with a
 * 1,000-hour library beside a 2-hour one: "river mountain" in the small library read 56,000
 * segments of the big one and took 130 ms; through this index it reads its own 100 in under 1 ms.
 * The big library's own searches cost the same either way. A statement on the tsvector alone
 * (said_lexemes, migration 0013) uses this index too (GIN takes any subset of its columns), so the
 * tsvector's own index goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create extension if not exists btree_gin`.execute(db);
  await sql`create index if not exists transcript_library_tsv on transcript_segments using gin (library_id, tsv)`.execute(db);
  await sql`drop index if exists transcript_tsv`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists transcript_tsv on transcript_segments using gin (tsv)`.execute(db);
  await sql`drop index if exists transcript_library_tsv`.execute(db);
}
