import { randomBytes } from 'node:crypto';
import { fingerprintOfBytes } from '../../../src/server/fingerprint';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  API,
  partCount,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_PART_CONCURRENCY,
  type Media,
  type UploadStartAnswer,
  type User,
} from '../../../src/contract';
import type { startTestServer } from './harness';
import { codeFrom, uniqueEmail } from './harness';
import { makeSolidImage } from '../../fixtures/makeMedia';

type T = Awaited<ReturnType<typeof startTestServer>>;

/** The fingerprint the browser computes, for test uploads. */
export const fingerprintOf = (bytes: Buffer) => fingerprintOfBytes(bytes);

/** Registers and verifies a user through the real mail link; returns the token. */
export async function verifiedUser(t: T, tag = 'u') {
  const email = uniqueEmail(tag);
  const before = t.mailbox.count();
  const reg = await t.api<User>('POST', API.register, { body: { email, password: 'upload-password-1' } });
  const mail = await t.mailbox.next(email, /Confirm your email/, before);
  const v = await t.api<User>('POST', API.verifyEmail, { body: { token: codeFrom(mail.links[0]!) } });
  return { email, token: v.body.token!, userId: reg.body.data!._id };
}

export async function defaultLibrary(t: T, token: string) {
  const libs = await t.api<Array<{ _id: string; rootFolderId: string; isDefault: boolean; isDemo: boolean }>>('GET', API.libraries, {
    token,
  });
  return libs.body.data!.find((l) => l.isDefault)!;
}

export async function startUpload(
  t: T,
  token: string,
  libraryId: string,
  folderId: string,
  filename: string,
  bytes: Buffer,
  uniqueId = fingerprintOf(bytes),
) {
  return t.api<UploadStartAnswer>('POST', API.uploadStart(libraryId, folderId), {
    token,
    body: { filename, size: bytes.length, parts: partCount(bytes.length), uniqueId, deduplicationPolicy: { onConflict: 'error' } },
  });
}

/** PUTs parts like the browser: 8 at a time, raw bytes, remembering each ETag. */
export async function putParts(partUrls: string[], bytes: Buffer, only?: number[]) {
  const etags: Array<{ partNumber: number; etag: string }> = [];
  const queue = partUrls.map((url, i) => ({ url, n: i + 1 })).filter((p) => !only || only.includes(p.n));
  await Promise.all(
    Array.from({ length: UPLOAD_PART_CONCURRENCY }, async () => {
      for (let p = queue.shift(); p; p = queue.shift()) {
        const body = bytes.subarray((p.n - 1) * UPLOAD_CHUNK_SIZE, Math.min(bytes.length, p.n * UPLOAD_CHUNK_SIZE));
        const r = await fetch(p.url, { method: 'PUT', body: body as unknown as BodyInit });
        if (!r.ok) throw new Error(`part ${p.n}: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
        etags.push({ partNumber: p.n, etag: r.headers.get('etag') ?? '' });
      }
    }),
  );
  return etags.sort((a, b) => a.partNumber - b.partNumber);
}

export async function uploadFile(t: T, token: string, libraryId: string, folderId: string, filename: string, bytes: Buffer) {
  const start = await startUpload(t, token, libraryId, folderId, filename, bytes);
  if (start.status !== 201) throw new Error(`start ${start.status}: ${start.body.error?.message}`);
  const { media, partUrls, opaqueData } = start.body.data!;
  const parts = await putParts(partUrls, bytes);
  const fin = await t.api<Media>('POST', API.uploadFinish(libraryId, media._id), { token, body: { opaqueData, parts } });
  return fin;
}

export async function waitForStatus(
  t: T,
  token: string,
  libraryId: string,
  mediaId: string,
  statuses: string[],
  timeoutMs = 60_000,
): Promise<Media> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await t.api<Media>('GET', API.media(libraryId, mediaId), { token });
    if (r.body.data && statuses.includes(r.body.data.status)) return r.body.data;
    if (Date.now() > deadline) throw new Error(`media ${mediaId} stayed ${r.body.data?.status ?? r.status}`);
    await new Promise((res) => setTimeout(res, 250));
  }
}

/** A small real video made by ffmpeg (testsrc with a frame counter). */
export function makeVideo(seconds = 2, size = '320x180', extra: string[] = []): Buffer {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'vid-')), 'v.mp4');
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=duration=${seconds}:size=${size}:rate=25`,
    ...extra,
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    file,
  ]);
  const b = fs.readFileSync(file);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return b;
}

export const randomFile = (size: number) => randomBytes(size);

/**
 * A verified user, their default library and a small solid-colour photo uploaded into it (waited
 * for until indexed when `indexed`): the real ids that tests walking every route call with.
 */
export async function ownerWithPhoto(t: T, tag: string, dir: string, o: { colour: string; size: number; indexed: boolean }) {
  const owner = await verifiedUser(t, tag);
  const lib = await defaultLibrary(t, owner.token);
  const png = await makeSolidImage(dir, o.colour, o.size);
  const fin = await uploadFile(t, owner.token, lib._id, lib.rootFolderId, `${o.colour}.png`, fs.readFileSync(png));
  const media = o.indexed
    ? await waitForStatus(t, owner.token, lib._id, fin.body.data!._id, ['completed', 'errored', 'invalid'], 120_000)
    : fin.body.data!;
  return { owner, lib, media };
}
