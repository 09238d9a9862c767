import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { API, type Media, type TranscriptFile, type TranscriptLine } from '../../../src/contract';
import { FOX_PHRASE, makeSpeechVideo } from '../../fixtures/makeMedia';
import { startTestServer } from './harness';
import { defaultLibrary, uploadFile, verifiedUser, waitForStatus } from './upload';

/** A test server holding one indexed video of real speech whose first lines say known sentences. */
export interface SpeechLines {
  t: Awaited<ReturnType<typeof startTestServer>>;
  owner: Awaited<ReturnType<typeof verifiedUser>>;
  lib: { _id: string; rootFolderId: string };
  media: Media;
  /** The video's transcript lines with text, the first ones corrected to the sentences asked for. */
  lines: TranscriptLine[];
  close(): Promise<void>;
}

/**
 * Starts a server, indexes a video of flite's speech through pocketsphinx (two lines of real speech)
 * and corrects its first lines to `texts` through the API, as a person would: transcript search
 * tests then know exactly what was said. `tag` names the account and the scratch folder.
 */
export async function speechWithLines(tag: string, texts: readonly [string, string]): Promise<SpeechLines> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `clipseek-${tag}-`));
  const t = await startTestServer();
  const close = async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const owner = await verifiedUser(t, tag);
    const lib = await defaultLibrary(t, owner.token);
    const video = await makeSpeechVideo(path.join(dir, 'speech.mp4'), [FOX_PHRASE, 'please call stella and ask her to bring these things']);
    const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, 'speech.mp4', fs.readFileSync(video.path));
    const media = await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 240_000);
    expect(media.status).toBe('completed');
    const file = await t.api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${lib._id}&mediaId=${media._id}`, {
      token: owner.token,
    });
    const lines = file.body.data!.segments.filter((s) => s.text.trim());
    expect(lines.length, JSON.stringify(lines)).toBeGreaterThanOrEqual(texts.length);
    for (const [i, text] of texts.entries()) {
      const r = await t.api<TranscriptLine>('PATCH', API.transcriptSegment(lib._id, media._id, lines[i]!.id), {
        token: owner.token,
        body: { text },
      });
      expect(r.status, JSON.stringify(r.body.error)).toBe(200);
    }
    return { t, owner, lib, media, lines, close };
  } catch (err) {
    await close();
    throw err;
  }
}
