import { type Kysely, type Migration, Migrator } from 'kysely';
import * as m0001 from './migrations/0001_accounts';
import * as m0002 from './migrations/0002_libraries';
import * as m0003 from './migrations/0003_credits';
import * as m0004 from './migrations/0004_billing';
import * as m0005 from './migrations/0005_index';
import * as m0006 from './migrations/0006_embedding_index';
import * as m0007 from './migrations/0007_shot_terms';
import * as m0008 from './migrations/0008_renders';
import * as m0009 from './migrations/0009_transcript_corrections';
import * as m0010 from './migrations/0010_job_leases';
import * as m0011 from './migrations/0011_moment_trims';
import * as m0012 from './migrations/0012_spoken_forms';
import * as m0013 from './migrations/0013_said_lexemes';
import * as m0014 from './migrations/0014_ingest_chunks';
import * as m0015 from './migrations/0015_transcript_library_index';

/** Versioned migrations, in order. Add new files here; never edit a released one. */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_libraries': m0002,
  '0003_credits': m0003,
  '0004_billing': m0004,
  '0005_index': m0005,
  '0006_embedding_index': m0006,
  '0007_shot_terms': m0007,
  '0008_renders': m0008,
  '0009_transcript_corrections': m0009,
  '0010_job_leases': m0010,
  '0011_moment_trims': m0011,
  '0012_spoken_forms': m0012,
  '0013_said_lexemes': m0013,
  '0014_ingest_chunks': m0014,
  '0015_transcript_library_index': m0015,
};

export async function migrateToLatest(db: Kysely<unknown>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
