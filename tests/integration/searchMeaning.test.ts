import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type Moment, type SearchResults } from '../../src/contract';
import { speechWithLines, type SpeechLines } from './support/speechLines';

// Transcript search by meaning through the HTTP API (issue 40). A video with real speech is indexed
// by pocketsphinx and its two lines corrected to known sentences; queries in other words find them,
// with the words that matched and why, and nothing is found for what nobody said.
let t: SpeechLines['t'];
let owner: SpeechLines['owner'];
let lib: SpeechLines['lib'];
let media: SpeechLines['media'];
let close: SpeechLines['close'] | undefined;

const CAR = 'The doctor bought a new car.';
const BREAD = 'The cook burned the bread.';

beforeAll(async () => {
  ({ t, owner, lib, media, close } = await speechWithLines('meaning', [CAR, BREAD]));
}, 300_000);

afterAll(async () => {
  await close?.();
});

const search = async (text: string, kind: 'transcript' | 'unified' = 'transcript'): Promise<Moment[]> => {
  const path = kind === 'transcript' ? API.searchTranscript(lib._id) : API.searchUnified(lib._id);
  const r = await t.api<SearchResults>('POST', path, { token: owner.token, body: { text } });
  expect(r.status, JSON.stringify(r.body.error)).toBe(200);
  return r.body.data!.results;
};

describe('transcript search by meaning', () => {
  it('finds "a physician bought an automobile" where the doctor bought a new car, saying why', async () => {
    const [first] = await search('a physician bought an automobile');
    expect(first?.text).toBe(CAR);
    expect(first!.confidence).not.toBe('low');
    expect(first!.match?.reasons).toEqual(expect.arrayContaining(['physician ≈ doctor', 'automobile ≈ car']));
    expect(first!.match?.words).toEqual(expect.arrayContaining(['doctor', 'bought', 'car']));
  });

  it('finds "the baker scorched the loaf" where the cook burned the bread, but never with high confidence', async () => {
    const found = (await search('the baker scorched the loaf')).find((m) => m.text === BREAD);
    expect(found).toBeDefined();
    expect(found!.confidence).not.toBe('high');
    expect(found!.match?.reasons).toContain('loaf, a kind of bread');
    expect(found!.match?.words).toContain('bread');
  });

  it('ranks the words themselves first: an exact phrase is high confidence with no reason needed', async () => {
    const [first] = await search('the doctor bought a new car');
    expect(first).toMatchObject({ text: CAR, confidence: 'high' });
    expect(first!.match?.reasons).toEqual([]);
    const said = (await search('the doctor bought a new car')).find((m) => m.text === CAR)!.score;
    const meant = (await search('a physician bought an automobile')).find((m) => m.text === CAR)!.score;
    expect(meant).toBeLessThan(said);
  });

  it('ranks a segment saying the opposite of a negated query lower', async () => {
    const plain = (await search('the cook burned the bread')).find((m) => m.text === BREAD)!.score;
    const negated = (await search("the cook didn't burn the bread")).find((m) => m.text === BREAD)!.score;
    expect(negated).toBeLessThan(plain);
  });

  it('still finds a line saying two query words in other words when hundreds say one of them as asked', async () => {
    // More segments saying 'physician' than a search reads (400): only segments holding the related
    // words of two query words or more can outrank them, and they are still read (the rest are not).
    const db = t.server.database.db;
    const rows = Array.from({ length: 450 }, (_, i) => ({
      media_id: media._id,
      library_id: lib._id,
      start: 1000 + i * 4,
      end: 1003 + i * 4,
      text: 'the physician waited a while',
      words: '[]',
    }));
    await db.insertInto('transcript_segments').values(rows).execute();
    try {
      const found = await search('a physician with an automobile');
      expect(found[0]?.text).toBe(CAR);
      expect(found[0]!.match?.reasons).toEqual(expect.arrayContaining(['physician ≈ doctor', 'automobile ≈ car']));
    } finally {
      await db.deleteFrom('transcript_segments').where('media_id', '=', media._id).where('start', '>=', 1000).execute();
    }
  });

  it('finds a related word from the moment someone says it, though a search before found nobody saying it', async () => {
    // Related words nobody says are left out of the statement (saidLexemes): one said after a search
    // that found it unsaid must still be found by the next one.
    const NAP = 'the cat slept all afternoon';
    expect((await search('a feline')).some((m) => m.text === NAP)).toBe(false);
    const db = t.server.database.db;
    await db
      .insertInto('transcript_segments')
      .values({ media_id: media._id, library_id: lib._id, start: 900, end: 903, text: NAP, words: '[]' })
      .execute();
    try {
      const found = (await search('a feline')).find((m) => m.text === NAP);
      expect(found?.match?.words).toContain('cat');
      expect(found!.match!.reasons.length).toBeGreaterThan(0);
    } finally {
      await db.deleteFrom('transcript_segments').where('media_id', '=', media._id).where('start', '=', 900).execute();
    }
  });

  it('finds nothing confident for what nobody said, and expands unified search alike', async () => {
    expect((await search('the astronaut floated in orbit')).filter((m) => m.confidence !== 'low')).toEqual([]);
    const unified = (await search('a physician bought an automobile', 'unified')).find((m) => m.text.includes(CAR));
    expect(unified?.match?.reasons).toContain('physician ≈ doctor');
  });
});
