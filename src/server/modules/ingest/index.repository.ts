import { sql, type Kysely } from 'kysely';
import type { DB, IngestState } from '../../db/schema';
import { projectEmbedding } from './embeddingProjection';
import { SPOKEN_FORMS_VERSION, spokenForms } from './spokenForms';

const vec = (v: Float32Array | null) => (v ? `[${Array.from(v, (x) => x.toFixed(6)).join(',')}]` : null);

/** Shots, keyframes and transcript segments of media, and the ingest bookkeeping on the media row. */
export class IndexRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async state(mediaId: string): Promise<IngestState> {
    const r = await this.db.selectFrom('media').select('ingest').where('id', '=', mediaId).executeTakeFirst();
    return (r?.ingest as IngestState | undefined) ?? { done: [] };
  }

  /** Merges into the ingest state with one statement (jsonb ||), so concurrent progress writes don't clobber it. */
  async patchState(mediaId: string, patch: Partial<IngestState>) {
    await this.db
      .updateTable('media')
      .set({ ingest: sql`ingest || ${JSON.stringify(patch)}::jsonb` as never, updated_at: new Date() })
      .where('id', '=', mediaId)
      .execute();
  }

  /** Records a stage done, with the milliseconds it took when given (one statement: the two lanes finish stages at once). */
  async markDone(mediaId: string, stage: string, ms?: number) {
    const timing = ms === undefined ? sql`'{}'::jsonb` : sql`jsonb_build_object(${stage}::text, ${ms}::int)`;
    await this.db
      .updateTable('media')
      .set({
        ingest: sql`jsonb_set(
          jsonb_set(ingest, '{done}', (select coalesce(jsonb_agg(distinct x), '[]'::jsonb) from jsonb_array_elements_text(coalesce(ingest->'done', '[]'::jsonb) || to_jsonb(${stage}::text)) as x)),
          '{timings}', coalesce(ingest->'timings', '{}'::jsonb) || ${timing}
        ) || jsonb_build_object('stage', ${stage}::text)` as never,
      })
      .where('id', '=', mediaId)
      .execute();
  }

  async replaceShots(mediaId: string, shots: Array<{ start: number; end: number }>) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('shots').where('media_id', '=', mediaId).execute();
      if (shots.length)
        await trx
          .insertInto('shots')
          .values(shots.map((s, idx) => ({ media_id: mediaId, idx, start: s.start, end: s.end })))
          .execute();
    });
  }

  shots(mediaId: string) {
    return this.db.selectFrom('shots').selectAll().where('media_id', '=', mediaId).orderBy('idx').execute();
  }

  setShotDescription(mediaId: string, idx: number, description: string) {
    return this.db.updateTable('shots').set({ description }).where('media_id', '=', mediaId).where('idx', '=', idx).execute();
  }

  async replaceKeyframes(mediaId: string, libraryId: string, frames: Array<{ t: number; shotIdx: number }>) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('keyframes').where('media_id', '=', mediaId).execute();
      for (let i = 0; i < frames.length; i += 500) {
        await trx
          .insertInto('keyframes')
          .values(
            frames.slice(i, i + 500).map((f) => ({
              media_id: mediaId,
              library_id: libraryId,
              t: f.t,
              shot_idx: f.shotIdx,
              objects: '[]',
              classes: '[]',
              colours: '[]',
            })),
          )
          .execute();
      }
    });
  }

  keyframes(mediaId: string) {
    return this.db
      .selectFrom('keyframes')
      .select(['id', 't', 'shot_idx', 'objects', 'classes', 'colours', 'ocr'])
      .where('media_id', '=', mediaId)
      .orderBy('t')
      .execute();
  }

  /** Keyframes whose features are still to compute (resuming skips the rest). */
  pendingKeyframes(mediaId: string) {
    return this.db
      .selectFrom('keyframes')
      .select(['id', 't'])
      .where('media_id', '=', mediaId)
      .where('embedding', 'is', null)
      .orderBy('t')
      .execute();
  }

  async saveFeatures(
    id: string,
    f: {
      objects: unknown[];
      classes: unknown[];
      colours: unknown[];
      ocr: string;
      terms: string[];
      embedding: Float32Array;
      clip: Float32Array | null;
    },
  ) {
    await this.db
      .updateTable('keyframes')
      .set({
        objects: JSON.stringify(f.objects),
        classes: JSON.stringify(f.classes),
        colours: JSON.stringify(f.colours),
        ocr: f.ocr,
        terms: sql`to_tsvector('simple', ${f.terms.join(' ')})` as never,
        embedding: vec(f.embedding),
        embedding_r: vec(f.embedding.length ? projectEmbedding(f.embedding) : null),
        clip: vec(f.clip),
      })
      .where('id', '=', id)
      .execute();
  }

  async replaceTranscript(
    mediaId: string,
    libraryId: string,
    segments: Array<{ start: number; end: number; text: string; words: unknown[] }>,
  ) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('transcript_segments').where('media_id', '=', mediaId).execute();
      if (segments.length)
        await trx
          .insertInto('transcript_segments')
          .values(
            segments.map((s) => ({
              media_id: mediaId,
              library_id: libraryId,
              start: s.start,
              end: s.end,
              text: s.text,
              spoken: spokenForms(s.text),
              spoken_version: SPOKEN_FORMS_VERSION,
              words: JSON.stringify(s.words),
            })),
          )
          .execute();
    });
  }

  /** A completed media holding the same shared file, whose index can be reused. */
  async indexedTwin(blobKey: string, exceptId: string) {
    return this.db
      .selectFrom('media')
      .selectAll()
      .where('blob_key', '=', blobKey)
      .where('id', '<>', exceptId)
      .where('status', '=', 'completed')
      .where(sql<boolean>`ingest->'done' ? 'complete'`)
      .orderBy('created_at')
      .executeTakeFirst();
  }

  /** Copies shots, keyframes (with features) and transcript (as recognised) of one media to another, in one transaction. */
  async copyIndex(fromId: string, toId: string, toLibraryId: string) {
    await this.db.transaction().execute(async (trx) => {
      for (const t of ['shots', 'shot_terms', 'keyframes', 'transcript_segments'] as const)
        await trx.deleteFrom(t).where('media_id', '=', toId).execute();
      await sql`insert into shots (media_id, idx, start, "end", description) select ${toId}, idx, start, "end", description from shots where media_id = ${fromId}`.execute(
        trx,
      );
      await sql`insert into keyframes (media_id, library_id, t, shot_idx, objects, classes, colours, ocr, terms, embedding, embedding_r, clip)
        select ${toId}, ${toLibraryId}, t, shot_idx, objects, classes, colours, ocr, terms, embedding, embedding_r, clip from keyframes where media_id = ${fromId}`.execute(
        trx,
      );
      await sql`insert into shot_terms (library_id, media_id, shot_idx, term, score)
        select ${toLibraryId}, ${toId}, shot_idx, term, score from shot_terms where media_id = ${fromId}`.execute(trx);
      // What speech to text heard: corrections belong to the media they were made in, not to its twins.
      await sql`insert into transcript_segments (media_id, library_id, start, "end", text, speaker, words)
        select ${toId}, ${toLibraryId}, start, "end", coalesce(original_text, text), speaker, words from transcript_segments where media_id = ${fromId}`.execute(
        trx,
      );
      await renormaliseSpoken(trx, SPOKEN_FORMS_VERSION, toId);
    });
  }

  /**
   * Writes the spoken forms (spokenForms.ts) of up to `batch` segments that have none or older
   * ones (indexed before migration 0012, or before the rules last changed); how many it wrote.
   * Run at start until it writes none: a segment not yet written is still found by its text.
   */
  renormaliseSpoken(batch = 1000): Promise<number> {
    return renormaliseSpoken(this.db, SPOKEN_FORMS_VERSION, undefined, batch);
  }

  /** Replaces a media's rows of the shot index (see migration 0007). */
  async replaceShotTerms(mediaId: string, libraryId: string, rows: Array<{ shotIdx: number; term: string; score: number }>) {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('shot_terms').where('media_id', '=', mediaId).execute();
      for (let i = 0; i < rows.length; i += 1000)
        await trx
          .insertInto('shot_terms')
          .values(
            rows
              .slice(i, i + 1000)
              .map((r) => ({ library_id: libraryId, media_id: mediaId, shot_idx: r.shotIdx, term: r.term, score: r.score })),
          )
          .execute();
    });
  }

  /** Completed videos without a thumbnail track (indexed before tracks existed) that were not tried yet, oldest first. */
  async videosWithoutTrack(limit: number) {
    return this.db
      .selectFrom('media')
      .select(['id', 'blob_key', 'duration'])
      .where('status', '=', 'completed')
      .where('kind', '=', 'video')
      .where(sql<boolean>`ingest -> 'track' is null and ingest -> 'trackFailed' is null`)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Completed media with keyframes but no shot index rows (indexed before the shot index existed). */
  async mediaWithoutShotTerms() {
    return this.db
      .selectFrom('media as m')
      .select(['m.id', 'm.library_id'])
      .where('m.status', '=', 'completed')
      .where((eb) => eb.exists(eb.selectFrom('keyframes as k').select('k.id').whereRef('k.media_id', '=', 'm.id')))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('shot_terms as s').select('s.shot_idx').whereRef('s.media_id', '=', 'm.id'))))
      .execute();
  }

  /**
   * A running chunk's progress (0..1, only rising) recorded, and the share of the stage done over
   * all its `count` chunks: a done chunk counts 1, a running one its progress.
   */
  async chunkProgress(mediaId: string, stage: string, idx: number, progress: number, count: number): Promise<number> {
    await sql`insert into ingest_chunks (media_id, stage, idx, progress) values (${mediaId}, ${stage}, ${idx}, ${progress})
      on conflict (media_id, stage, idx) do update set progress = greatest(ingest_chunks.progress, excluded.progress), updated_at = now()
      where ingest_chunks.done_at is null`.execute(this.db);
    const r = await this.db
      .selectFrom('ingest_chunks')
      .select(sql<number>`coalesce(sum(case when done_at is not null then 1 else progress end), 0)`.as('sum'))
      .where('media_id', '=', mediaId)
      .where('stage', '=', stage)
      .executeTakeFirst();
    return Math.min(1, Number(r?.sum ?? 0) / Math.max(1, count));
  }

  /** Records a chunk done with its result (a retried chunk records the same again). */
  async recordChunk(mediaId: string, stage: string, idx: number, result: unknown, ms: number) {
    await sql`insert into ingest_chunks (media_id, stage, idx, progress, result, ms, done_at)
      values (${mediaId}, ${stage}, ${idx}, 1, ${JSON.stringify(result)}::jsonb, ${Math.round(ms)}, now())
      on conflict (media_id, stage, idx) do update set progress = 1, result = excluded.result, ms = excluded.ms, done_at = excluded.done_at, updated_at = now()`.execute(
      this.db,
    );
  }

  /** The done chunks of a media's stage, in order, with their results. */
  /** The indexes of a stage's recorded chunks, without their results (counting them reads no result). */
  async doneChunkIndexes(mediaId: string, stage: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('ingest_chunks')
      .select('idx')
      .where('media_id', '=', mediaId)
      .where('stage', '=', stage)
      .where('done_at', 'is not', null)
      .orderBy('idx')
      .execute();
    return rows.map((r) => r.idx);
  }

  async doneChunks(mediaId: string, stage: string): Promise<Array<{ idx: number; result: unknown; ms: number | null }>> {
    return this.db
      .selectFrom('ingest_chunks')
      .select(['idx', 'result', 'ms'])
      .where('media_id', '=', mediaId)
      .where('stage', '=', stage)
      .where('done_at', 'is not', null)
      .orderBy('idx')
      .execute();
  }

  /** Forgets a media's chunks of these stages (once merged into the index, or when what they were made from is made again). */
  async clearChunks(mediaId: string, stages: readonly string[]) {
    if (stages.length) await this.db.deleteFrom('ingest_chunks').where('media_id', '=', mediaId).where('stage', 'in', stages).execute();
  }

  /** A media's segments: the text as it reads now (corrected or not), and the recogniser's word times. */
  transcript(mediaId: string) {
    return this.db
      .selectFrom('transcript_segments')
      .select(['start', 'end', 'text', 'speaker', 'words'])
      .where('media_id', '=', mediaId)
      .orderBy('start')
      .execute();
  }
}

/** The spoken forms of segments not written under `version` (of one media, or any `batch` of them). */
async function renormaliseSpoken(db: Kysely<DB>, version: number, mediaId?: string, batch = 1000): Promise<number> {
  let q = db
    .selectFrom('transcript_segments')
    .select(['id', 'text'])
    .where((eb) => eb.or([eb('spoken_version', 'is', null), eb('spoken_version', '<', version)]));
  q = mediaId ? q.where('media_id', '=', mediaId) : q.limit(batch);
  const rows = await q.execute();
  if (!rows.length) return 0;
  await sql`update transcript_segments s set spoken = v.spoken, spoken_version = ${version}
    from unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => spokenForms(r.text))}::text[]) as v(id, spoken)
    where s.id = v.id`.execute(db);
  return rows.length;
}
