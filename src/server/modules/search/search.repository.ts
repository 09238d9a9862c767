import { sql, type Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DB } from '../../db/schema';
import { VECTOR_SEARCH_WIDTH } from '../../db/sessionSettings';
import { projectEmbedding } from '../ingest/embeddingProjection';
import type { QueryExpansion } from './queryExpansion';
import { termKey, type TranscriptPlan, type TranscriptTerm } from './transcriptScore';

export interface FrameRow {
  id: string;
  media_id: string;
  library_id: string;
  t: number;
  shot_idx: number;
  objects: Array<{ label: string; score: number }>;
  classes: Array<{ label: string; score: number }>;
  colours: Array<{ name: string; fraction: number }>;
  ocr: string;
  sim?: number;
}

/** A keyframe found by image similarity, with what is needed to make it a moment. */
export interface NearFrame {
  id: string;
  media_id: string;
  library_id: string;
  t: number;
  shot_idx: number;
  sim: number;
  /** Its shot's keyframe times in order, and where the shot ends (null where not recorded). */
  shot_times: number[];
  shot_end: number | null;
}

/** The key of a shot in maps of shots: its media and its index. */
export const shotKey = (mediaId: string, shotIdx: number) => `${mediaId}:${shotIdx}`;

/** Where shot (`media`, `idx`) ends (null where not recorded): a subquery on the shots table. */
const shotEnd = (media: string, idx: string) =>
  sql`(select se."end" from shots se where se.media_id = ${sql.ref(media)} and se.idx = ${sql.ref(idx)})`;

/** The keyframe times of shot (`media`, `idx`) in order, as an array: a subquery on the keyframes table. */
const shotKeyframeTimes = (media: string, idx: string) =>
  sql`array(select kt.t from keyframes kt where kt.media_id = ${sql.ref(media)} and kt.shot_idx = ${sql.ref(idx)} order by kt.t)`;

/** A shot's keyframe times in order and where it ends (null where not recorded), by shotKey. */
export interface ShotTimes {
  times: number[];
  end: number | null;
}

const vec = (v: Float32Array) => `[${Array.from(v, (x) => x.toFixed(6)).join(',')}]`;

/** How long a library's transcript statistics (segment count, mean length) are reused: they move slowly. */
const STATS_TTL_MS = 60_000;
const statsCache = new Map<string, { at: number; segments: number; avgLength: number }>();
let commonLexemes: { at: number; counts: ReadonlyMap<string, number> } | null = null;
/** A lexeme as a tsquery operand: quoted, so that it is matched as it is (not parsed or stemmed again). */
const tsLiteral = (l: string) => `'${l.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
/**
 * Lexemes some transcript segment was found to say. Only what is said is kept: a segment that says
 * it may later go (a harmless extra operand), while a word not said yet may be said by the next
 * upload or transcript correction, so it is asked again each time.
 */
const lexemesSaid = new LRUCache<string, true>({ max: 20_000 });

/**
 * A query text's plan (its lexemes in order and its expansion's terms), as Postgres's English
 * configuration makes them: the same text always gives the same ones, so a repeated query (the next
 * page, the same words again) is not sent to the database for them (one statement of a transcript
 * search's three; 0.9 ms of the database thread under the load bench).
 */
const queryPlans = new LRUCache<string, TranscriptPlan>({ max: 2000 });

/** Index lookups for search; only completed media are searchable. */
export class SearchRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private frames(libraryIds: string[], mediaIds?: string[]) {
    let q = this.db
      .selectFrom('keyframes as k')
      .innerJoin('media as m', 'm.id', 'k.media_id')
      .select(['k.id', 'k.media_id', 'k.library_id', 'k.t', 'k.shot_idx', 'k.objects', 'k.classes', 'k.colours', 'k.ocr'])
      .where('k.library_id', 'in', libraryIds)
      .where('m.status', '=', 'completed');
    if (mediaIds?.length) q = q.where('k.media_id', 'in', mediaIds);
    return q;
  }

  /**
   * The keyframes (with their labels) of the best shots for a query, of completed media only, in
   * time order, each with where its shot ends (null where not recorded), in one statement.
   * Each lookup is an index word standing for one of `concepts` query concepts with a weight: a
   * shot's score for a concept is its best lookup's (shot index score times weight), read from the
   * `perTerm` best shots of each word; the `shots` shots with the highest mean over the concepts are
   * read whole. Ranking the shots here keeps thousands of index rows out of this process.
   */
  async framesOfBestShots(
    libraryIds: string[],
    lookups: Array<{ term: string; weight: number; concept: number }>,
    concepts: number,
    o: { perTerm: number; shots: number; mediaIds?: string[] },
  ): Promise<Array<FrameRow & { shot_end: number | null }>> {
    if (!lookups.length || concepts < 1) return [];
    const media = o.mediaIds?.length ? sql`and st.media_id in (${sql.join(o.mediaIds)})` : sql``;
    // Joining from the list of best shots keeps it one index lookup per shot (keyframes_shot), whatever the library's size.
    const rows = await sql<FrameRow & { shot_end: number | null }>`
      with hits as (
        select s.media_id, s.shot_idx, l.concept, max(s.score * l.weight) as score
        from unnest(${lookups.map((l) => l.term)}::text[], ${lookups.map((l) => l.weight)}::float8[], ${lookups.map((l) => l.concept)}::int[])
          as l(term, weight, concept)
        cross join lateral (
          select st.media_id, st.shot_idx, st.score from shot_terms st
          where st.library_id in (${sql.join(libraryIds)}) and st.term = l.term ${media}
          order by st.score desc limit ${o.perTerm}
        ) s
        group by s.media_id, s.shot_idx, l.concept
      ),
      best as (
        select h.media_id, h.shot_idx, ${shotEnd('h.media_id', 'h.shot_idx')} as shot_end
        from hits h group by h.media_id, h.shot_idx
        order by sum(h.score) / ${concepts}::float8 desc, h.media_id, h.shot_idx limit ${o.shots}
      )
      select k.id, k.media_id, k.library_id, k.t, k.shot_idx, k.objects, k.classes, k.colours, k.ocr, p.shot_end
      from best p
      join keyframes k on k.media_id = p.media_id and k.shot_idx = p.shot_idx
      join media m on m.id = k.media_id and m.status = 'completed'
      order by k.media_id, k.t`.execute(this.db);
    return rows.rows.map((r) => ({ ...r, shot_end: r.shot_end === null ? null : Number(r.shot_end) }));
  }

  /**
   * For each given shot: its keyframe times in order and where the shot ends — what is needed to
   * join adjacent matching keyframes into moments without reading whole media.
   */
  async shotTimes(shots: Array<{ mediaId: string; shotIdx: number }>): Promise<Map<string, ShotTimes>> {
    const out = new Map<string, ShotTimes>();
    if (!shots.length) return out;
    const rows = await sql<{ media_id: string; shot_idx: number; times: number[]; end: number | null }>`
      select p.media_id, p.shot_idx,
        ${shotKeyframeTimes('p.media_id', 'p.shot_idx')} as times,
        ${shotEnd('p.media_id', 'p.shot_idx')} as "end"
      from unnest(${shots.map((s) => s.mediaId)}::uuid[], ${shots.map((s) => s.shotIdx)}::int[]) as p(media_id, shot_idx)`.execute(this.db);
    for (const r of rows.rows)
      out.set(shotKey(r.media_id, r.shot_idx), { times: r.times.map(Number), end: r.end === null ? null : Number(r.end) });
    return out;
  }

  /**
   * Runs `fn` where HNSW scans return `limit` neighbours: every connection's search list is
   * VECTOR_SEARCH_WIDTH long (db/sessionSettings.ts), so only a longer answer needs a transaction that
   * widens it. A search list as long as the answer: a shorter one falls back on iterative scanning
   * for the rest, measured 3x slower (36 vs 12 ms for 400 of 180,000 keyframes).
   */
  private wideVectorScan<T>(limit: number, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
    if (limit <= VECTOR_SEARCH_WIDTH) return fn(this.db);
    return this.db.transaction().execute(async (trx) => {
      await sql.raw(`set local hnsw.ef_search = ${Math.min(1000, Math.ceil(limit))}`).execute(trx);
      return fn(trx);
    });
  }

  /**
   * Keyframes nearest by cosine similarity of the image embedding, of completed media only, best
   * first: candidates from the HNSW graph over the 256-d projection, ranked exactly by the full
   * embedding; the best `k` are kept, then those below max(`minSim`, best x `ofBest`) dropped (far-off
   * frames are noise, not moments). Each comes with its shot's keyframe times and end, so moments
   * need no second statement. `exclude` (a moment used as the query) is left out before ranking.
   */
  async nearestEmbedding(
    libraryIds: string[],
    v: Float32Array,
    k: number,
    o: { minSim: number; ofBest: number; mediaIds?: string[]; exclude?: { mediaId: string; start: number; end: number } },
  ): Promise<NearFrame[]> {
    const wide = Math.max(2 * k, 200);
    const media = o.mediaIds?.length ? sql`and c.media_id in (${sql.join(o.mediaIds)})` : sql``;
    const ex = o.exclude;
    const exclude = ex ? sql`and not (c.media_id = ${ex.mediaId} and c.t >= ${ex.start - 1e-3} and c.t < ${ex.end})` : sql``;
    return this.wideVectorScan(wide, async (db) => {
      // The exact similarity is computed on the rows the index scan returns (joining them back by id
      // fetched every candidate's row a second time: 4-6 ms of a 30 ms statement at 100 hours).
      const rows = await sql<NearFrame>`
        with cand as (
          select c.id, c.media_id, c.library_id, c.t, c.shot_idx, 1 - (c.embedding <=> ${vec(v)}::vector) as sim
          from keyframes c
          where c.library_id in (${sql.join(libraryIds)}) and c.embedding_r is not null ${media} ${exclude}
          order by c.embedding_r <=> ${vec(projectEmbedding(v))}::vector limit ${wide}
        ),
        near as (
          select c.* from cand c join media m on m.id = c.media_id and m.status = 'completed'
          order by c.sim desc limit ${k}
        ),
        kept as (
          select * from near where sim >= greatest(${o.minSim}::float8, (select max(sim) from near) * ${o.ofBest}::float8)
        ),
        shots as materialized (
          select d.media_id, d.shot_idx,
            ${shotKeyframeTimes('d.media_id', 'd.shot_idx')} as shot_times,
            ${shotEnd('d.media_id', 'd.shot_idx')} as shot_end
          from (select distinct media_id, shot_idx from kept) d
        )
        select kept.*, shots.shot_times, shots.shot_end
        from kept join shots on shots.media_id = kept.media_id and shots.shot_idx = kept.shot_idx
        order by kept.sim desc, kept.media_id, kept.t`.execute(db);
      return rows.rows.map((r) => ({
        ...r,
        t: Number(r.t),
        sim: Number(r.sim),
        shot_times: r.shot_times.map(Number),
        shot_end: r.shot_end === null ? null : Number(r.shot_end),
      }));
    });
  }

  /** Nearest keyframes by CLIP similarity to a text embedding (HNSW index). */
  async nearestClip(libraryIds: string[], v: Float32Array, k: number, mediaIds?: string[]): Promise<FrameRow[]> {
    const literal = vec(v);
    return this.wideVectorScan(
      k,
      async (trx) =>
        (await new SearchRepository(trx)
          .frames(libraryIds, mediaIds)
          .select(sql<number>`1 - (k.clip <=> ${literal}::vector)`.as('sim'))
          .where('k.clip', 'is not', null)
          .orderBy(sql`k.clip <=> ${literal}::vector`)
          .limit(k)
          .execute()) as unknown as FrameRow[],
    );
  }

  /** The mean image embedding of a media's keyframes in [start, end): a moment as a query. */
  async meanEmbedding(mediaId: string, start: number, end: number): Promise<Float32Array | null> {
    const r = await this.db
      .selectFrom('keyframes')
      .select(sql<string>`avg(embedding)::text`.as('v'))
      .where('media_id', '=', mediaId)
      .where('t', '>=', start - 1e-3)
      .where('t', '<', Math.max(end, start + 1e-3))
      .where('embedding', 'is not', null)
      .executeTakeFirst();
    return r?.v ? Float32Array.from(JSON.parse(r.v) as number[]) : null;
  }

  /**
   * A query as transcript search matches it (transcriptScore.ts): its lexemes in order (its spoken
   * forms in Postgres's English configuration, as the index), and each expansion (queryExpansion.ts)
   * as a term of lexemes standing for the query lexemes of its word. One statement for all of them,
   * made once per query text (the same text always gives the same plan).
   */
  async transcriptPlan(expansion: QueryExpansion, key: string): Promise<TranscriptPlan> {
    const known = queryPlans.get(key);
    if (known) return known;
    const alternatives = expansion.groups.flatMap((g, group) => g.alternatives.map((a) => ({ ...a, group })));
    const texts = [expansion.spoken, ...expansion.groups.map((g) => g.text), ...alternatives.map((a) => a.text)];
    const lex = await sql<{ i: number; lexeme: string; positions: number[] }>`
      select t.i::int as i, x.lexeme, x.positions
      from unnest(${texts}::text[]) with ordinality as t(txt, i)
      cross join lateral unnest(to_tsvector('english', t.txt)) as x`.execute(this.db);
    const byText = texts.map(() => [] as Array<{ l: string; p: number }>);
    for (const r of lex.rows) for (const p of r.positions) byText[Number(r.i) - 1]!.push({ l: r.lexeme, p: Number(p) });
    for (const list of byText) list.sort((a, b) => a.p - b.p);
    const query = byText[0]!.map((x) => x.l);
    const slots = [...new Set(query)];
    const terms: TranscriptTerm[] = [];
    const seen = new Set(slots);
    alternatives.forEach((a, i) => {
      const own = byText[1 + a.group]!.map((x) => x.l);
      const covered = slots.flatMap((l, slot) => (own.includes(l) ? [slot] : []));
      const words = byText[1 + expansion.groups.length + i]!;
      // nothing to stand for (the word is a stop word), nothing to find, or the word itself again
      if (!covered.length || !words.length || words.some((w) => own.includes(w.l))) return;
      const term = { lexemes: words.map((w) => w.l), offsets: words.map((w) => w.p) };
      const k = termKey(term);
      if (seen.has(k)) return;
      seen.add(k);
      terms.push({ ...term, slots: covered, weight: a.weight, relation: a.relation, from: expansion.groups[a.group]!.text, said: a.text });
    });
    const plan = { query, terms, negated: expansion.negated };
    queryPlans.set(key, plan);
    return plan;
  }

  /**
   * What BM25 needs for a transcript query plan: the segments holding any query lexeme or term
   * (best by how much of the query they hold, with their tsvector as text), and the statistics
   * (segments, mean length, per-lexeme and per-term counts).
   */
  async transcriptCandidates(libraryIds: string[], plan: TranscriptPlan, mediaIds: string[] | undefined, limit: number) {
    const { query } = plan;
    const lexemes = [...new Set(query)];
    const stats = { segments: 0, avgLength: 1, df: new Map<string, number>() };
    if (!lexemes.length) return { stats, rows: [] };
    const key = [...libraryIds].sort().join(',');
    let base = statsCache.get(key);
    if (!base || Date.now() - base.at > STATS_TTL_MS) {
      const r = await sql<{ n: number; avg: number | null }>`
        select count(*)::int n, avg(length(tsv))::float8 avg from transcript_segments where library_id in (${sql.join(libraryIds)})`.execute(
        this.db,
      );
      base = { at: Date.now(), segments: r.rows[0]?.n ?? 0, avgLength: r.rows[0]?.avg ?? 1 };
      statsCache.set(key, base);
    }
    stats.segments = base.segments;
    stats.avgLength = base.avgLength;
    const common = await this.commonLexemes();
    const said = await this.saidLexemes(
      plan.terms.flatMap((t) => t.lexemes),
      common,
    );
    // Related terms no segment says match nothing: each would still be tried on every segment read.
    const heard = { ...plan, terms: plan.terms.filter((t) => t.lexemes.every((l) => said.has(l))) };
    const found = await this.candidatesStatement(libraryIds, heard, lexemes, mediaIds, limit, common).execute(this.db);
    const dfs = found.rows[0]?.df ?? [];
    lexemes.forEach((l, i) => stats.df.set(l, Number(dfs[i] ?? 0)));
    // the count is up to a minute old: never fewer segments than say one word now (BM25's idf would turn negative)
    stats.segments = Math.max(stats.segments, ...stats.df.values());
    const rows = found.rows.map((r) => ({ ...r, start: Number(r.start), end: Number(r.end) }));
    return { stats, rows };
  }

  /**
   * Which of `lexemes` some transcript segment says (any library): the common ones (Postgres's
   * statistics) and those found before (lexemesSaid) without asking, the others through the tsvector
   * index (a lookup in its entries for a word nobody says). WordNet's related words are often never
   * said in a library (felicitous, canid, halcyon), and a related term is tried on each of the
   * thousands of segments holding a query word (about 0.06 us an operand a segment): at 100 hours,
   * "happy dog"'s 18 operands cost 5 ms of a 25 ms statement.
   */
  private async saidLexemes(lexemes: string[], common: ReadonlyMap<string, number>): Promise<Set<string>> {
    const said = new Set<string>();
    const ask: string[] = [];
    for (const l of new Set(lexemes)) {
      if (common.has(l) || lexemesSaid.has(l)) said.add(l);
      else ask.push(l);
    }
    if (ask.length) {
      // One read of the segments saying any of them, as the index finds them (rare words: the common
      // ones were not asked), in a function that keeps PostgreSQL on the index (migration 0013). A
      // lookup each that stops at the first segment was planned as a scan of the table for a word
      // nobody says: a second at 100 hours.
      const r = await sql<{ l: string }>`
        select l from said_lexemes(${ask.map(tsLiteral).join(' | ')}::tsquery, ${ask}::text[]) as l`.execute(this.db);
      for (const { l } of r.rows) {
        lexemesSaid.set(l, true);
        said.add(l);
      }
    }
    return said;
  }

  /**
   * The lexemes most segments say, with about how many say each (Postgres's statistics of the
   * tsvector column, from its last ANALYZE: its most common elements and their share of the rows),
   * over every library; empty where none were gathered. Read once a minute at most.
   */
  private async commonLexemes(): Promise<ReadonlyMap<string, number>> {
    if (commonLexemes && Date.now() - commonLexemes.at <= STATS_TTL_MS) return commonLexemes.counts;
    const r = await sql<{ elems: string[] | null; freqs: number[] | null; rows: number }>`
      select st.most_common_elems::text::text[] as elems, st.most_common_elem_freqs as freqs, c.reltuples::float8 as rows
      from pg_stats st join pg_class c on c.relname = st.tablename and c.relnamespace = (select oid from pg_namespace where nspname = st.schemaname)
      where st.schemaname = current_schema() and st.tablename = 'transcript_segments' and st.attname = 'tsv'`.execute(this.db);
    const counts = new Map<string, number>();
    const row = r.rows[0];
    if (row?.elems && row.freqs)
      row.elems.forEach((l, i) => counts.set(l, Math.round(Number(row.freqs![i] ?? 0) * Math.max(0, Number(row.rows)))));
    commonLexemes = { at: Date.now(), counts };
    return counts;
  }

  /**
   * The one statement of transcriptCandidates. Each segment read gets a column per query lexeme
   * (1 when it holds it: summed, its document frequency, BM25's) and one per lexeme's related
   * terms together (any of them, counted at the best one's weight: which one matched is worked out
   * with the segment's positions outside, for the few hundred read; a column per term cost twice
   * the statement's time at 100 hours). Candidates are ranked by how much of the query they hold
   * (each lexeme's best of itself, 1, and its terms, their weight), shorter segments first among
   * equals; only the best `limit` carry their text and tsvector out.
   *
   * Segments are read in parts. Those holding a query lexeme, all of them (as without expansion).
   * Of those holding none, only the ones that can rank: one holding related terms of a single
   * lexeme holds less than 1 (every weight is), so it ranks below every segment holding a query
   * lexeme and is read only when there are fewer of those than `limit` (singles); one holding
   * related terms of two lexemes or more can outrank them and is read through the index's
   * intersection of them (pairs), but only through terms said in fewer segments than `limit`
   * (`common`: Postgres's statistics): two words said everywhere ('foot' and 'place' for walk home)
   * single out no moment, and intersecting their long lists cost more than the rest of the
   * statement. Reading every segment that holds any related term made the statement twice as long
   * at 100 hours: a common alternative ('house' for home) alone is 2,500 segments there.
   */
  private candidatesStatement(
    libraryIds: string[],
    plan: TranscriptPlan,
    lexemes: string[],
    mediaIds: string[] | undefined,
    limit: number,
    common: ReadonlyMap<string, number>,
  ) {
    const tsquery = (t: Pick<TranscriptTerm, 'lexemes' | 'offsets'>) =>
      t.lexemes.map((l, i) => (i ? ` <${t.offsets[i]! - t.offsets[i - 1]!}> ` : '') + tsLiteral(l)).join('');
    const group = (q: string) => (q.includes('<') || q.includes('|') || q.includes('&') ? `(${q})` : q);
    const related = lexemes.map((_, slot) => plan.terms.filter((t) => t.slots.includes(slot)));
    const columns: Array<{ q: string; slot?: number; weight?: number }> = [
      ...lexemes.map((l) => ({ q: tsLiteral(l) })),
      ...related.flatMap((terms, slot) =>
        terms.length ? [{ q: terms.map((t) => group(tsquery(t))).join(' | '), slot, weight: Math.max(...terms.map((t) => t.weight)) }] : [],
      ),
    ];
    /** Column h<i>: 1 when the segment holds lexeme i, or one of a lexeme's related terms. */
    const hit = (i: number) => sql.raw(`h${i}`);
    const has = columns.map((c, i) => sql`(s.tsv @@ ${c.q}::tsquery)::int as ${hit(i)}`);
    // how much of the query a segment holds: each lexeme's best of itself (1) and its related terms (their weight)
    const held = lexemes.map((_, slot) => {
      const i = columns.findIndex((c) => c.slot === slot);
      return i < 0 ? sql`${hit(slot)}::float8` : sql`greatest(${hit(slot)}::float8, ${hit(i)} * ${columns[i]!.weight!}::float8)`;
    });
    const anyWord = lexemes.map(tsLiteral).join(' | ');
    const alts = columns.filter((c) => c.slot !== undefined).map((c) => group(c.q));
    // the same, of the related terms said in fewer segments than `limit` (a phrase: any of its words)
    const rare = (t: TranscriptTerm) => t.lexemes.some((l) => (common.get(l) ?? 0) < limit);
    const rareAlts = related.flatMap((terms) => {
      const kept = terms.filter(rare);
      return kept.length ? [group(kept.map((t) => group(tsquery(t))).join(' | '))] : [];
    });
    const media = mediaIds?.length ? sql`and s.media_id in (${sql.join(mediaIds)})` : sql``;
    const read = (where: ReturnType<typeof sql>) => sql`
        select s.id, length(s.tsv) as len, ${sql.join(has)}
        from transcript_segments s
        join media m on m.id = s.media_id and m.status = 'completed'
        where s.library_id in (${sql.join(libraryIds)}) and ${where} ${media}`;
    const words = sql`words as materialized (${read(sql`s.tsv @@ ${anyWord}::tsquery`)})`;
    const parts = [words];
    if (alts.length) {
      // related terms of one lexeme alone (or more), no query lexeme: only when the lexemes' own are too
      // few (counted up to `limit` only: counting thousands of word hits cost 1-2 ms at 100 hours)
      const onlyRelated = `(${alts.join(' | ')}) & !(${anyWord})`;
      parts.push(
        sql`singles as materialized (${read(sql`(select count(*) from (select 1 from words limit ${limit}) w) < ${limit} and s.tsv @@ ${onlyRelated}::tsquery`)})`,
      );
      const pairs = rareAlts.flatMap((a, i) => rareAlts.slice(i + 1).map((b) => `${a} & ${b}`));
      if (pairs.length)
        parts.push(
          sql`pairs as materialized (${read(sql`s.tsv @@ ${pairs.map((p) => `(${p})`).join(' | ')}::tsquery and not s.tsv @@ ${anyWord}::tsquery`)})`,
        );
    }
    const names = ['words', ...(alts.length ? ['singles'] : []), ...(parts.length > 2 ? ['pairs'] : [])];
    // a segment in pairs is also in singles when those are read
    const hits = names.map((n) =>
      n === 'pairs' && names.includes('singles')
        ? sql`select * from pairs where not exists (select 1 from singles x where x.id = pairs.id)`
        : sql`select * from ${sql.raw(n)}`,
    );
    return sql<{ media_id: string; library_id: string; start: number; end: number; text: string; tsv: string; df: number[] }>`
      with ${sql.join(parts)},
      hits as (${sql.join(hits, sql` union all `)}),
      df as (select array[${sql.join(lexemes.map((_, i) => sql`sum(${hit(i)})::int`))}] as df from words),
      best as (
        select id, ${sql.join(held, sql` + `)} as n, len from hits order by n desc, len limit ${limit}
      )
      select s.media_id, s.library_id, s.start, s."end", s.text, s.tsv::text as tsv, (select df from df) as df
      from best b join transcript_segments s on s.id = b.id
      order by b.n desc, b.len`;
  }
}
