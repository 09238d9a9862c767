import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type Media, type Moment, type SearchResults, type TranscriptFile, type TranscriptLine } from '../../src/contract';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { startTestServer } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

// Transcript search by meaning through the HTTP API (issue 40). A video with real speech is indexed
// by pocketsphinx and its two lines corrected to known sentences; queries in other words find them,
// with the words that matched and why, and nothing is found for what nobody said.
let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: Awaited<ReturnType<typeof verifiedUser>>;
let lib: { _id: string; rootFolderId: string };
let media: Media;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-meaning-'));

const CAR = 'The doctor bought a new car.';
const BREAD = 'The cook burned the bread.';

beforeAll(async () => {
  t = await startTestServer();
  owner = await verifiedUser(t, 'meaning');
  lib = await defaultLibrary(t, owner.token);
  const video = await makeSpeechVideo(path.join(dir, 'speech.mp4'), [FOX_PHRASE, 'please call stella and ask her to bring these things']);
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, 'speech.mp4', fs.readFileSync(video.path));
  media = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
  expect(media.status).toBe('completed');
  const file = await t.api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${lib._id}&mediaId=${media._id}`, {
    token: owner.token,
  });
  const lines = file.body.data!.segments.filter((s) => s.text.trim());
  expect(lines.length, JSON.stringify(lines)).toBeGreaterThanOrEqual(2);
  for (const [line, text] of [
    [lines[0]!, CAR],
    [lines[1]!, BREAD],
  ] as const) {
    const r = await t.api<TranscriptLine>('PATCH', API.transcriptSegment(lib._id, media._id, line.id), {
      token: owner.token,
      body: { text },
    });
    expect(r.status, JSON.stringify(r.body.error)).toBe(200);
  }
}, 300_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
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

  it('finds nothing confident for what nobody said, and expands unified search alike', async () => {
    expect((await search('the astronaut floated in orbit')).filter((m) => m.confidence !== 'low')).toEqual([]);
    const unified = (await search('a physician bought an automobile', 'unified')).find((m) => m.text.includes(CAR));
    expect(unified?.match?.reasons).toContain('physician ≈ doctor');
  });
});
