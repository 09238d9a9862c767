import { type Kysely, sql } from 'kysely';

/**
 * Spoken forms (issue 37, item 13). Transcript search indexes a segment's text in its spoken forms
 * (repositories/spokenForms.ts: 'Mr.' and 'mister' one way, 'twenty five' as 25, contractions spelt
 * out), kept in `spoken` with the version of the rules that made it; `tsv` is generated from it, or
 * from `text` while it is null. Existing segments are normalised when the server starts
 * (IndexRepository.renormaliseSpoken): until then they are found as they were.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('transcript_segments').addColumn('spoken', 'text').addColumn('spoken_version', 'integer').execute();
  await sql`drop index if exists transcript_tsv`.execute(db);
  await db.schema.alterTable('transcript_segments').dropColumn('tsv').execute();
  await db.schema
    .alterTable('transcript_segments')
    .addColumn('tsv', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('english', coalesce(spoken, text))`).stored())
    .execute();
  await sql`create index transcript_tsv on transcript_segments using gin (tsv)`.execute(db);
  // finds the segments the start-up pass has still to normalise (none, or older rules)
  await db.schema.createIndex('transcript_spoken_version').on('transcript_segments').column('spoken_version').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists transcript_spoken_version`.execute(db);
  await sql`drop index if exists transcript_tsv`.execute(db);
  await db.schema.alterTable('transcript_segments').dropColumn('tsv').execute();
  await db.schema
    .alterTable('transcript_segments')
    .addColumn('tsv', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('english', text)`).stored())
    .execute();
  await sql`create index transcript_tsv on transcript_segments using gin (tsv)`.execute(db);
  await db.schema.alterTable('transcript_segments').dropColumn('spoken').dropColumn('spoken_version').execute();
}
