import { Migrator, sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type Moment, type SearchResults } from '../../src/contract';
import { MIGRATIONS } from '../../src/server/db/migrate';
import { IndexRepository } from '../../src/server/modules/ingest/index.repository';
import { speechWithLines, type SpeechLines } from './support/speechLines';

// Spoken forms through the HTTP API (issue 37, item 13): speech to text writes 'mister' and
// 'twenty five', people type 'Mr.' and '25'. A video with real speech is indexed by pocketsphinx, two
// of its lines are corrected to words written one way, and transcript search finds them written the
// other way, with high confidence; segments indexed before migration 0012 are still found, and in
// both forms once the start-up pass has written theirs.
let t: SpeechLines['t'];
let owner: SpeechLines['owner'];
let lib: SpeechLines['lib'];
let media: SpeechLines['media'];
let close: SpeechLines['close'] | undefined;

const WRITTEN = 'Mr. John Dashwood owes 25 pounds';
const SAID = "mister elinor won't wait till nineteen eighty four";

beforeAll(async () => {
  ({ t, owner, lib, media, close } = await speechWithLines('spoken', [WRITTEN, SAID]));
}, 300_000);

afterAll(async () => {
  await close?.();
});

const search = async (text: string) => {
  const r = await t.api<SearchResults>('POST', `${API.searchTranscript(lib._id)}?limit=50`, { token: owner.token, body: { text } });
  expect(r.status, JSON.stringify(r.body.error)).toBe(200);
  return r.body.data!.results.filter((m) => m.mediaId === media._id);
};
/** The confident moment saying `text` first, or a description of what came instead. */
const firstSays = async (query: string, text: string) => {
  const r = await search(query);
  const top: Moment | undefined = r[0];
  return top && top.text === text && top.confidence === 'high' ? 'found' : `${query}: ${JSON.stringify(r.slice(0, 2))}`;
};

describe('spoken forms in transcript search', () => {
  it('finds words written one way by the other: titles, numbers and contractions', async () => {
    // written 'Mr.' and '25', searched as said
    expect(await firstSays('mister john dashwood', WRITTEN)).toBe('found');
    expect(await firstSays('twenty five pounds', WRITTEN)).toBe('found');
    expect(await firstSays('twenty-five pounds', WRITTEN)).toBe('found');
    // said 'mister' and 'nineteen eighty four', searched as written
    expect(await firstSays('Mr. Elinor', SAID)).toBe('found');
    expect(await firstSays('Mr Elinor wait till 1984', SAID)).toBe('found');
    expect(await firstSays('will not wait', SAID)).toBe('found');
    // "won't" is not the word 'won' (Postgres's parser made it so before)
    expect((await search('won')).filter((m) => m.text === SAID)).toEqual([]);
  });

  it('still finds segments indexed before migration 0012, and in both forms once the start-up pass has run', async () => {
    const db = t.server.database.db as unknown as Kysely<unknown>;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
    // Back to the index before spoken forms (its down migration), then up again: segments as an upgrade finds them.
    const down = await migrator.migrateTo('0011_moment_trims');
    expect(down.error).toBeUndefined();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(up.results?.map((r) => r.migrationName)).toEqual(Object.keys(MIGRATIONS).filter((name) => name > '0011_moment_trims'));
    const pending = await sql<{ n: number }>`select count(*)::int n from transcript_segments where spoken is null`.execute(db);
    expect(pending.rows[0]!.n).toBeGreaterThanOrEqual(2);
    // Found as they are written, before the pass
    expect(await firstSays('mister elinor', SAID)).toBe('found');
    expect(await firstSays('john dashwood owes 25 pounds', WRITTEN)).toBe('found');
    // The start-up pass (IngestService.backfillSpokenForms) writes their spoken forms, in batches, once.
    const index = new IndexRepository(t.server.database.db);
    let written = 0;
    for (let n = await index.renormaliseSpoken(1); n > 0; n = await index.renormaliseSpoken(1)) written += n;
    expect(written).toBe(pending.rows[0]!.n);
    expect(await index.renormaliseSpoken()).toBe(0);
    expect(await firstSays('mister john dashwood', WRITTEN)).toBe('found');
    expect(await firstSays('Mr. Elinor, 1984', SAID)).toBe('found');
  });
});
