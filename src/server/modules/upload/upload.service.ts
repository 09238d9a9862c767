import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  fingerprintId,
  fingerprintRanges,
  mediaKindOf,
  MSG_LIB,
  partCount,
  partSize,
  UNSUPPORTED_FILE_TYPE,
  UPLOAD_MAX_BYTES,
  type Media,
  type UploadFinishBody,
  type UploadStartAnswer,
  type UploadStartBody,
} from '../../../contract';
import type { BlobStore, MultipartRef, StoredPart } from '../../adapters/blobs/blobStore';
import { LocalBlobStore, PartTooLargeError } from '../../adapters/blobs/localBlobStore';
import type { TokenSigner } from '../../adapters/security/tokens';
import { AppError, badRequest, forbidden } from '../../errors';
import type { MediaRepository } from '../libraries/media.repository';
import type { UploadRepository } from './upload.repository';
import type { UserRow } from '../accounts/user.repository';
import type { Access } from '../libraries/access';
import { INGEST_JOB, requireVerified, type LibraryService } from '../libraries/library.service';
import { toMedia } from '../libraries/mediaView';
import type { JobQueue, StorageQuota } from '../ports';
import { holdAt } from '../../testHold';
import { blobKeys } from '../storage/blobKeys';

export const PART_URL_TTL_SECONDS = 6 * 3600;
/** A finish still unfinished after this long died with its process (assembling 50 GiB on S3 takes well under it). */
export const FINISH_LEASE_MS = 15 * 60_000;

export interface UploadDeps {
  library: LibraryService;
  access: Access;
  media: MediaRepository;
  uploads: UploadRepository;
  blobs: BlobStore;
  queue: JobQueue;
  tokens: TokenSigner;
  quota: StorageQuota;
  /** Fast header-only probe at finish time (duration for the storage check); null when not media. */
  quickDuration: (input: string) => Promise<number | null>;
}

interface Opaque {
  u: string;
  m: string;
  l: string;
  s: string;
}

const FINGERPRINT_RE = /^fp1-(\d+)-[0-9a-f]{64}$/;

/** The chunked upload protocol: start -> PUT parts to signed URLs -> finish. */
export class UploadService {
  constructor(private readonly d: UploadDeps) {}

  private seal(o: Opaque) {
    const body = Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${body}.${this.d.tokens.mac(`upload:${body}`)}`;
  }

  private unseal(opaque: unknown): Opaque {
    if (typeof opaque !== 'string') throw badRequest('opaqueData is required');
    const [body, mac] = opaque.split('.');
    if (!body || !mac || this.d.tokens.mac(`upload:${body}`) !== mac) throw forbidden('The upload data has been tampered with.');
    return JSON.parse(Buffer.from(body, 'base64url').toString()) as Opaque;
  }

  private ref(upload: { id: string; blob_key: string; store_upload_id: string | null }): MultipartRef {
    return { uploadId: upload.id, key: upload.blob_key, storeUploadId: upload.store_upload_id };
  }

  async start(user: UserRow, libraryId: string, folderId: string, body: UploadStartBody): Promise<UploadStartAnswer> {
    requireVerified(user);
    const lib = await this.d.access.library(user.id, libraryId);
    if (lib.is_read_only || lib.is_demo) throw new AppError('forbidden', MSG_LIB.readOnlyLibrary);
    const folder = await this.d.library.folderOf(libraryId, folderId);
    const filename = String(body.filename ?? '')
      .trim()
      .replace(/[/\\]/g, '_');
    if (!filename || filename.length > 255) throw badRequest('filename must be 1 to 255 characters');
    const kind = mediaKindOf(filename);
    if (!kind) throw new AppError('unsupported_media_type', UNSUPPORTED_FILE_TYPE);
    const size = body.size;
    if (!Number.isSafeInteger(size) || size <= 0) throw badRequest('size must be a positive whole number of bytes');
    if (size > UPLOAD_MAX_BYTES)
      throw new AppError('payload_too_large', `Files larger than ${UPLOAD_MAX_BYTES / 1024 ** 3} GiB are not accepted.`);
    if (body.parts !== partCount(size)) throw badRequest(`parts must be ${partCount(size)} for a file of ${size} bytes (20 MiB parts)`);
    const fp = FINGERPRINT_RE.exec(String(body.uniqueId ?? ''));
    if (!fp || Number(fp[1]) !== size)
      throw badRequest('uniqueId must be the file fingerprint fp1-<size>-<sha256 of first and last 8192 bytes>');
    if (body.deduplicationPolicy?.onConflict !== 'error') throw badRequest("deduplicationPolicy.onConflict must be 'error'");

    const limitHours = await this.d.quota.limitHours(user.id);
    if ((await this.d.media.usedSeconds(user.id)) >= limitHours * 3600) throw new AppError('forbidden', MSG_LIB.storageLimit(limitHours));

    // A live duplicate is a conflict; an abandoned (`empty`) one is removed and the upload proceeds.
    for (const dup of await this.d.media.duplicateOf(folder.id, body.uniqueId)) {
      if (dup.status !== 'empty') throw new AppError('conflict', MSG_LIB.duplicateInFolder, { mediaId: dup.id });
      await this.d.library.purgeEmpty(dup);
    }
    const mediaId = randomUUID();
    const blobKey = blobKeys.original(user.id, mediaId, filename.split('.').pop()!);
    const media = await this.d.media.insert({
      id: mediaId,
      user_id: user.id,
      library_id: libraryId,
      folder_id: folder.id,
      unique_id: body.uniqueId,
      status: 'uploading',
      kind,
      name: filename.replace(/\.[^.]+$/, ''),
      filename,
      blob_key: blobKey,
      size_bytes: size,
      origin: JSON.stringify({ source: 'user' }),
    });
    if (!media) throw new AppError('conflict', MSG_LIB.duplicateInFolder);
    const uploadId = randomUUID();
    const expiresAt = new Date(Date.now() + PART_URL_TTL_SECONDS * 1000);
    try {
      const { storeUploadId } = await this.d.blobs.startMultipart(uploadId, blobKey, size);
      const upload = await this.d.uploads.create({
        id: uploadId,
        media_id: mediaId,
        user_id: user.id,
        store_upload_id: storeUploadId,
        blob_key: blobKey,
        size_bytes: size,
        parts: body.parts,
        expires_at: expiresAt,
      });
      const partUrls: string[] = [];
      for (let n = 1; n <= body.parts; n++) partUrls.push(await this.d.blobs.partUrl(this.ref(upload), n, expiresAt));
      return { media: toMedia(media), partUrls, opaqueData: this.seal({ u: uploadId, m: mediaId, l: libraryId, s: user.id }) };
    } catch (err) {
      await this.d.library.abandonUpload(media);
      throw err;
    }
  }

  /** A part PUT to a local part URL: signature, expiry, range and exact size are all checked. */
  async receiveLocalPart(uploadId: string, partNumber: number, exp: string, sig: string, body: Readable) {
    const store = this.d.blobs;
    if (!(store instanceof LocalBlobStore)) throw new AppError('not_found', 'Not found.');
    if (!store.verify(['part', uploadId, String(partNumber), exp], sig)) throw forbidden('This part URL is not valid.');
    if (Number(exp) * 1000 < Date.now()) throw forbidden('This part URL has expired. Start the upload again.');
    const upload = await this.d.uploads.byId(uploadId);
    if (!upload || upload.finished_at) throw new AppError('not_found', 'This upload is unknown or already finished.');
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > upload.parts)
      throw badRequest(`part must be between 1 and ${upload.parts}`);
    const size = Number(upload.size_bytes);
    const expected = partSize(size, partNumber, upload.parts);
    const offset = (partNumber - 1) * partSize(size, 1, upload.parts);
    await this.d.uploads.forgetPart(uploadId, partNumber);
    let written: number;
    try {
      written = await store.writePart(uploadId, offset, expected, body);
    } catch (err) {
      if (err instanceof PartTooLargeError) throw badRequest(`Part ${partNumber} must be exactly ${expected} bytes; more were sent.`);
      throw err;
    }
    if (written !== expected) throw badRequest(`Part ${partNumber} must be exactly ${expected} bytes; ${written} were received.`);
    await this.d.uploads.recordPart(uploadId, partNumber, written, null);
    return { ok: true as const };
  }

  async finish(
    user: UserRow,
    libraryId: string,
    mediaId: string,
    opaqueData: unknown,
    clientParts: UploadFinishBody['parts'] = [],
  ): Promise<Media> {
    const o = this.unseal(opaqueData);
    if (o.s !== user.id || o.l !== libraryId || o.m !== mediaId) throw forbidden('This upload belongs to another file.');
    const media = await this.d.access.media(user.id, libraryId, mediaId, { includeEmpty: true });
    const upload = await this.d.uploads.byId(o.u);
    if (!upload || upload.finished_at || media.status !== 'uploading')
      throw new AppError('not_found', 'This upload is unknown or already finished.');
    const size = Number(upload.size_bytes);
    const ref = this.ref(upload);
    // A finish cut off by a crash after the file was assembled (reopened at the next boot, see
    // reopenCutOffFinishes): the parts are gone into the object, so it is checked as it stands.
    const assembled = await this.d.blobs.exists(upload.blob_key);
    const recorded: StoredPart[] =
      this.d.blobs.kind === 'local'
        ? (await this.d.uploads.parts(upload.id)).map((p) => ({ partNumber: p.part_number, size: Number(p.size_bytes), etag: p.etag }))
        : clientParts
            .filter((p) => Number.isInteger(p.partNumber) && p.partNumber >= 1 && p.partNumber <= upload.parts)
            .map((p) => ({ partNumber: p.partNumber, size: null, etag: p.etag }));
    const parts = assembled ? [] : await this.d.blobs.listParts(ref, recorded);
    const byNumber = new Map(parts.map((p) => [p.partNumber, p]));
    const missing: number[] = [];
    const wrong: string[] = [];
    for (let n = 1; n <= upload.parts && !assembled; n++) {
      const p = byNumber.get(n);
      if (!p) missing.push(n);
      else if (p.size !== null && p.size !== partSize(size, n, upload.parts))
        wrong.push(`part ${n} has ${p.size} bytes, expected ${partSize(size, n, upload.parts)}`);
    }
    // Incomplete: the upload stays open, so the client can send the missing parts and finish again.
    if (missing.length) throw badRequest(`The upload is missing part${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`);
    if (wrong.length) throw badRequest(`Wrong part size: ${wrong.join('; ')}. Send those parts again.`);
    if (!(await this.d.uploads.markFinished(upload.id))) throw new AppError('conflict', 'This upload is already being finished.');

    const fail = async (message: string, code: 'bad_request' | 'forbidden' = 'bad_request') => {
      await this.d.blobs.delete(upload.blob_key).catch(() => undefined);
      await this.d.uploads.delete(upload.id);
      await this.d.media.transition(mediaId, ['uploading'], { status: 'empty' });
      return new AppError(code, message);
    };
    try {
      if (!assembled)
        await this.d.blobs.completeMultipart(
          ref,
          parts.sort((a, b) => a.partNumber - b.partNumber),
        );
    } catch (err) {
      await this.d.blobs.abortMultipart(ref).catch(() => undefined);
      throw await fail(`The upload could not be assembled: ${(err as Error).message}`);
    }
    await holdAt('upload:assembled', media.filename, { mediaId });
    const stored = await this.d.blobs.size(upload.blob_key).catch(() => -1);
    if (stored !== size) throw await fail(`The assembled file has ${stored} bytes, expected ${size}. Upload the file again.`);
    if ((await this.fingerprintOf(upload.blob_key, size)) !== media.unique_id)
      throw await fail("The uploaded bytes don't match the file's fingerprint. Upload the file again.");

    const duration = await this.d.quickDuration(await this.d.blobs.toolInput(upload.blob_key));
    if (duration !== null) {
      const limitHours = await this.d.quota.limitHours(user.id);
      const used = await this.d.media.usedSeconds(user.id);
      if (used + duration > limitHours * 3600) throw await fail(MSG_LIB.storageLimit(limitHours), 'forbidden');
    }
    const row = await this.d.media.transition(mediaId, ['uploading'], { status: 'queued', progress: 0, duration: duration ?? null });
    if (!row) throw await fail('The upload was cleared while finishing.');
    await this.d.queue.send(INGEST_JOB, { mediaId }, { singletonKey: mediaId });
    return toMedia(row);
  }

  private async fingerprintOf(key: string, size: number) {
    const { head, tail } = fingerprintRanges(size);
    const h = createHash('sha256');
    for (const [start, end] of [head, tail])
      for await (const chunk of await this.d.blobs.read(key, { start, end })) h.update(chunk as Buffer);
    return fingerprintId(size, h.digest('hex'));
  }

  /**
   * Finishes that were cut off (the process died between marking an upload finished and queueing its
   * media) left the media 'uploading' and every later finish refused ('already finished') for good.
   * Those started before `before` are reopened, so the client's next finish completes them. At boot
   * in embedded mode every such finish is dead (one process holds the data directory); elsewhere the
   * expiry job reopens those older than FINISH_LEASE_MS.
   */
  reopenCutOffFinishes(before: Date) {
    return this.d.uploads.reopenCutOffFinishes(before);
  }

  /** Uploads whose part URLs expired without a finish are abandoned (status `empty`, bytes freed). */
  async expireStale() {
    await this.reopenCutOffFinishes(new Date(Date.now() - FINISH_LEASE_MS));
    for (const u of await this.d.uploads.expired(new Date())) {
      const m = await this.d.media.byId(u.media_id);
      if (m) await this.d.library.abandonUpload(m);
      else await this.d.uploads.delete(u.id);
    }
  }
}
