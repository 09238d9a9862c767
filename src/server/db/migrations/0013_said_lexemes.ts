import { type Kysely, sql } from 'kysely';

/**
 * Which of some lexemes a transcript segment says (search.repository.ts, saidLexemes), read through
 * the tsvector's GIN index. As a plain statement, PostgreSQL estimated an OR of 18 rare or unknown
 * lexemes at ~10 % of the segments and scanned the whole table in parallel instead: 55-80 ms a
 * search at 100 hours on Debian's PostgreSQL, where the index answers in well under 1 ms (none of
 * them is said). A function's own `set enable_seqscan = off` holds only while it runs; it is not
 * inlined, so its statement is planned with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function said_lexemes(q tsquery, ask text[]) returns setof text
    language sql stable
    set enable_seqscan = off
    as $$
      select distinct x.l from transcript_segments s cross join lateral unnest(tsvector_to_array(s.tsv)) as x(l)
      where s.tsv @@ q and x.l = any(ask)
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function if exists said_lexemes(tsquery, text[])`.execute(db);
}
