import { type Kysely, sql } from 'kysely';
import { INDEX_DIMS, projectEmbedding } from './frozen/embeddingProjection';

/**
 * Image similarity is indexed through a 256-d projection of the embedding (see
 * repositories/embeddingProjection.ts; this migration uses its frozen copy): the HNSW graph moves from the 1280-d column to `embedding_r`, and CLIP
 * vectors get their own graph so text-to-image search stays fast on large libraries.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table keyframes add column embedding_r vector(${sql.raw(String(INDEX_DIMS))})`.execute(db);
  await sql`drop index if exists keyframes_embedding`.execute(db);
  for (;;) {
    const rows = await sql<{ id: string; e: string }>`
      select id, embedding::text as e from keyframes where embedding is not null and embedding_r is null limit 500`.execute(db);
    if (!rows.rows.length) break;
    for (const r of rows.rows) {
      const v = projectEmbedding(Float32Array.from(JSON.parse(r.e) as number[]));
      await sql`update keyframes set embedding_r = ${`[${Array.from(v).join(',')}]`}::vector where id = ${r.id}`.execute(db);
    }
  }
  await sql`create index keyframes_embedding_r on keyframes using hnsw (embedding_r vector_cosine_ops)`.execute(db);
  await sql`create index keyframes_clip on keyframes using hnsw (clip vector_cosine_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists keyframes_clip`.execute(db);
  await sql`drop index if exists keyframes_embedding_r`.execute(db);
  await sql`alter table keyframes drop column embedding_r`.execute(db);
  await sql`create index keyframes_embedding on keyframes using hnsw (embedding vector_cosine_ops)`.execute(db);
}
