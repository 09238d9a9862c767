import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API,
  MSG,
  MSG_TRANSCRIPT,
  TRANSCRIPT_TEXT_MAX,
  type Library,
  type Media,
  type Moment,
  type SearchResults,
  type TranscriptCorrectionsAnswer,
  type TranscriptFile,
  type TranscriptLine,
} from '../../src/contract';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { startTestServer, WITH_DEMO } from './support/harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './support/upload';

// Transcript corrections through the HTTP API (issue 19): a video with real speech is indexed by
// pocketsphinx, its owner corrects a line, and from then on transcript and unified search, the
// transcript file and the SRT download read the correction; the recognised text and every change
// are kept, the original can be restored, and nobody else can touch or read any of it.
let t: Awaited<ReturnType<typeof startTestServer>>;
let owner: Awaited<ReturnType<typeof verifiedUser>>;
let other: Awaited<ReturnType<typeof verifiedUser>>;
let lib: { _id: string; rootFolderId: string };
let media: Media;
/** The line corrected below, as recognised, and a word of it that search found there before. */
let line: TranscriptLine;
let heardWord: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-corrections-'));

/** Words nobody says in the video: the correction. */
const CORRECTED = 'Zanzibar quartets rehearse marmalade';

beforeAll(async () => {
  t = await startTestServer(WITH_DEMO);
  owner = await verifiedUser(t, 'corrector');
  other = await verifiedUser(t, 'intruder');
  lib = await defaultLibrary(t, owner.token);
  const video = await makeSpeechVideo(path.join(dir, 'speech.mp4'), [FOX_PHRASE, 'please call stella and ask her to bring these things']);
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, 'interview.mp4', fs.readFileSync(video.path));
  media = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
  expect(media.status).toBe('completed');
}, 300_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const transcript = async (token = owner.token) =>
  t.api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${lib._id}&mediaId=${media._id}`, { token });
const correct = (text: unknown, token = owner.token, segmentId = line.id) =>
  t.api<TranscriptLine>('PATCH', API.transcriptSegment(lib._id, media._id, segmentId), { token, body: { text } });
const history = (token = owner.token) =>
  t.api<TranscriptCorrectionsAnswer>('GET', API.transcriptCorrections(lib._id, media._id), { token });
const search = async (type: 'transcript' | 'unified', text: string) => {
  const r = await t.api<SearchResults>(
    'POST',
    `${type === 'transcript' ? API.searchTranscript(lib._id) : API.searchUnified(lib._id)}?limit=50`,
    {
      token: owner.token,
      body: { text },
    },
  );
  expect(r.status, JSON.stringify(r.body.error)).toBe(200);
  return r.body.data!.results.filter((m) => m.mediaId === media._id);
};
/** Moments found by what is said in the corrected line (unified search may merge a visual moment into one). */
const ofLine = (moments: Moment[]) => moments.filter((m) => m.text && m.startTime <= line.start && m.endTime >= line.end);
const srt = async () => {
  const res = await fetch(`${t.server.url}${API.mediaSrt(lib._id, media._id)}`, { headers: { authorization: `Bearer ${owner.token}` } });
  expect(res.status).toBe(200);
  return res.text();
};
const words = (s: string) => s.toLowerCase().match(/[a-z']+/g) ?? [];

describe('transcript corrections', () => {
  it('serves the recognised transcript with segment ids, editable by its owner', async () => {
    const r = await transcript();
    expect(r.status).toBe(200);
    const { segments, editable } = r.body.data!;
    expect(editable).toBe(true);
    const spoken = segments.filter((s) => s.text.trim());
    expect(spoken.length, JSON.stringify(segments)).toBeGreaterThan(0);
    for (const s of spoken) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(s.original).toBeNull();
      expect(s.changes).toBe(0);
    }
    // The line to correct: one with a word that search finds there now and that no other line says.
    for (const s of spoken) {
      const elsewhere = new Set(spoken.filter((o) => o !== s).flatMap((o) => words(o.text)));
      for (const w of words(s.text).filter((x) => x.length >= 4 && !elsewhere.has(x))) {
        line = s;
        if (ofLine(await search('transcript', w)).length) {
          heardWord = w;
          break;
        }
      }
      if (heardWord) break;
    }
    expect(heardWord, `a searchable word in ${JSON.stringify(spoken)}`).toBeTruthy();
    expect(ofLine(await search('transcript', 'zanzibar'))).toEqual([]);
  });

  it('saves a correction, keeps the recognised text and records who changed what, when', async () => {
    const before = Date.now();
    const r = await correct(`  ${CORRECTED.replace(' ', '   ')} `);
    expect(r.status, JSON.stringify(r.body.error)).toBe(200);
    // Spaces collapse and ends are trimmed; the recognised words stay beside it.
    expect(r.body.data).toEqual({ ...line, text: CORRECTED, original: line.text, changes: 1 });

    const file = (await transcript()).body.data!;
    expect(file.segments.find((s) => s.id === line.id)).toEqual({ ...line, text: CORRECTED, original: line.text, changes: 1 });

    const h = (await history()).body.data!.corrections;
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      segmentId: line.id,
      start: line.start,
      end: line.end,
      kind: 'edit',
      oldText: line.text,
      newText: CORRECTED,
      by: owner.email,
      via: null,
    });
    expect(Date.parse(h[0]!.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(h[0]!.at)).toBeLessThanOrEqual(Date.now() + 1000);

    // The same text again changes nothing and records nothing.
    expect((await correct(CORRECTED)).status).toBe(200);
    expect((await history()).body.data!.corrections).toHaveLength(1);
  });

  it('is what transcript and unified search find from then on: the new words match, the old ones no longer do', async () => {
    for (const type of ['transcript', 'unified'] as const) {
      const found = ofLine(await search(type, 'zanzibar marmalade'));
      expect(found, `${type} search for the corrected words`).toHaveLength(1);
      expect(found[0]!.text).toContain(CORRECTED);
      // English stemming as the index does it: 'quartet' finds 'quartets'.
      expect(ofLine(await search(type, 'quartet')), `${type} search by a word's stem`).toHaveLength(1);
      expect(ofLine(await search(type, heardWord)), `${type} search for '${heardWord}', corrected away`).toEqual([]);
    }
  });

  it('is what the SRT download says', async () => {
    const text = await srt();
    expect(text).toContain(CORRECTED);
    expect(text).not.toContain(line.text);
    // A moment's SRT (its range) too.
    const res = await fetch(`${t.server.url}${API.mediaSrt(lib._id, media._id)}?start=${line.start}&end=${line.end}`, {
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(await res.text()).toContain(`00:00:00,000 --> `);
  });

  it('refuses empty text, control characters and overlong lines with a message saying so', async () => {
    const cases: Array<[unknown, string | RegExp]> = [
      ['', MSG_TRANSCRIPT.empty],
      ['   ', MSG_TRANSCRIPT.empty],
      // C0 controls and lone surrogates are refused by the input guard, before the service, as in every call.
      ['two\nlines', MSG.controlCharacter('text', 'U+000A')],
      ['a\u0000b', MSG.controlCharacter('text', 'U+0000')],
      ['tab\there', MSG.controlCharacter('text', 'U+0009')],
      ['bell\u0007', MSG.controlCharacter('text', 'U+0007')],
      ['half \ud800 a pair', MSG.invalidUnicode('text', 'U+D800')],
      ['C1\u0085', MSG_TRANSCRIPT.controlCharacters],
      ['line\u2028separator', MSG_TRANSCRIPT.controlCharacters],
      ['x'.repeat(TRANSCRIPT_TEXT_MAX + 1), MSG_TRANSCRIPT.tooLong(TRANSCRIPT_TEXT_MAX + 1)],
      ['x'.repeat(TRANSCRIPT_TEXT_MAX * 2 + 1), /must NOT have more than/],
      // A body is taken as its schema types it: no null read as '' (nor 42 as '42').
      [null, 'text must be string'],
      [42, 'text must be string'],
      [{ words: ['a'] }, /text must be string/],
    ];
    for (const [text, message] of cases) {
      // JSON: msgpack cannot carry a lone surrogate.
      const r = await t.api<TranscriptLine>('PATCH', API.transcriptSegment(lib._id, media._id, line.id), {
        token: owner.token,
        body: { text },
        format: 'json',
      });
      expect(r.status, JSON.stringify(text).slice(0, 40)).toBe(400);
      if (typeof message === 'string') expect(r.body.error?.message).toBe(message);
      else expect(r.body.error?.message).toMatch(message);
    }
    // exactly the limit is fine (and a correction of its own, then undone)
    expect((await correct('y'.repeat(TRANSCRIPT_TEXT_MAX))).status).toBe(200);
    expect((await correct(CORRECTED)).status).toBe(200);
    expect((await transcript()).body.data!.segments.find((s) => s.id === line.id)?.text).toBe(CORRECTED);
    const unknown = await correct('hello', owner.token, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error?.message).toBe(MSG_TRANSCRIPT.segmentNotFound);
  });

  it('lets nobody else correct it or read it, and support only as the owner', async () => {
    for (const r of [await correct('Hijacked words', other.token), await history(other.token), await transcript(other.token)])
      expect(r.status).toBe(404);
    const restore = await t.api('POST', API.transcriptSegmentRestore(lib._id, media._id, line.id), { token: other.token, body: {} });
    expect(restore.status).toBe(404);
    // Another user's library id with the owner's media id is just as unknown.
    const theirs = await defaultLibrary(t, other.token);
    expect(
      (await t.api('PATCH', API.transcriptSegment(theirs._id, media._id, line.id), { token: other.token, body: { text: 'x' } })).status,
    ).toBe(404);
    expect((await t.api('PATCH', API.transcriptSegment(lib._id, media._id, line.id), { body: { text: 'x' } })).status).toBe(401);
    expect((await transcript()).body.data!.segments.find((s) => s.id === line.id)?.text).toBe(CORRECTED);

    // Support impersonating the owner corrects as the owner; the record names them.
    const support = (await t.server.accounts.impersonate(owner.email, 'support@example.com', 10)).token;
    const r = await correct(`${CORRECTED} tonight`, support);
    expect(r.status).toBe(200);
    const [latest] = (await history()).body.data!.corrections;
    expect(latest).toMatchObject({
      kind: 'edit',
      oldText: CORRECTED,
      newText: `${CORRECTED} tonight`,
      by: owner.email,
      via: 'support@example.com',
    });
  });

  it("restores what speech to text heard, keeping the corrections' history", async () => {
    const r = await t.api<TranscriptLine>('POST', API.transcriptSegmentRestore(lib._id, media._id, line.id), {
      token: owner.token,
      body: {},
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ ...line, original: null, changes: 5 });
    const h = (await history()).body.data!.corrections;
    expect(h[0]).toMatchObject({ kind: 'restore', oldText: `${CORRECTED} tonight`, newText: line.text, by: owner.email, via: null });
    expect(h.map((c) => c.kind)).toEqual(['restore', 'edit', 'edit', 'edit', 'edit']);
    // One segment's history is asked for by its id.
    const one = await t.api<TranscriptCorrectionsAnswer>('GET', `${API.transcriptCorrections(lib._id, media._id)}?segmentId=${line.id}`, {
      token: owner.token,
    });
    expect(one.body.data!.corrections).toHaveLength(h.length);
    // Search and SRT follow: the heard word is found again, the corrected ones no longer.
    expect(ofLine(await search('transcript', heardWord))).toHaveLength(1);
    expect(ofLine(await search('unified', 'zanzibar marmalade'))).toEqual([]);
    expect(await srt()).toContain(line.text);
    // Restoring a line as recognised changes nothing more.
    await t.api('POST', API.transcriptSegmentRestore(lib._id, media._id, line.id), { token: owner.token, body: {} });
    expect((await history()).body.data!.corrections).toHaveLength(h.length);
  });

  it('keeps read-only libraries (the demo) as they are', async () => {
    const libs = (await t.api<Library[]>('GET', API.libraries, { token: owner.token })).body.data!;
    const demo = libs.find((l) => l.isDemo)!;
    const folder = await t.api<{ files: Media[] }>('GET', API.folder(demo._id), { token: owner.token });
    const sample = folder.body.data!.files[0];
    expect(sample, 'the demo library holds the samples').toBeTruthy();
    const r = await t.api('PATCH', API.transcriptSegment(demo._id, sample!._id, line.id), {
      token: owner.token,
      body: { text: 'Mine now' },
    });
    expect(r.status).toBe(403);
    expect(r.body.error?.message).toBe(MSG_TRANSCRIPT.readOnly);
    const file = await t.api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${demo._id}&mediaId=${sample!._id}`, {
      token: owner.token,
    });
    expect(file.body.data!.editable).toBe(false);
  });
});
