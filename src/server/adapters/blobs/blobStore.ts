import fs from 'node:fs';
import type { Readable } from 'node:stream';

/** A multipart upload in progress: the store's own id for it (S3 UploadId) if it has one. */
export interface MultipartRef {
  uploadId: string;
  key: string;
  storeUploadId: string | null;
}

export interface StoredPart {
  partNumber: number;
  /** Null when the store cannot tell (then the assembled object's size is checked instead). */
  size: number | null;
  etag: string | null;
}

/**
 * Where media bytes live. The local filesystem store (default) signs its own part and download URLs
 * and is served by this process; the S3 store hands out presigned URLs of an S3-compatible server.
 */
export interface BlobStore {
  readonly kind: 'local' | 's3';
  /** Opens a multipart upload of a file of `size` bytes. */
  startMultipart(uploadId: string, key: string, size: number): Promise<{ storeUploadId: string | null }>;
  /** A URL the browser PUTs part `partNumber` (1-based) to, valid until `expiresAt`. */
  partUrl(ref: MultipartRef, partNumber: number, expiresAt: Date): Promise<string>;
  /**
   * The parts the store holds for the upload. `reported` are the parts the server recorded itself
   * (local store) or the client reported (S3), used when the store cannot list them.
   */
  listParts(ref: MultipartRef, reported: StoredPart[]): Promise<StoredPart[]>;
  /** Makes the object whole from its parts. */
  completeMultipart(ref: MultipartRef, parts: StoredPart[]): Promise<void>;
  abortMultipart(ref: MultipartRef): Promise<void>;
  /** A short-lived URL that downloads the object, as `filename` when given. */
  downloadUrl(key: string, opts: { filename?: string; expiresInSeconds: number; inline?: boolean }): Promise<string>;
  /** Reads a byte range [start, end) (or all). */
  read(key: string, range?: { start: number; end: number }): Promise<Readable>;
  /** A path or URL that ffmpeg/ffprobe can read. */
  toolInput(key: string): Promise<string>;
  /**
   * Writes an object whole (readers never see part of it). A file is given as its read stream (see
   * putFile): the local store pipes it, the S3 store sends it with its length.
   */
  put(key: string, body: Buffer | Readable, contentType?: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number>;
  delete(key: string): Promise<void>;
  /** Deletes everything under a key prefix. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix` and when it was last written (the orphan sweep walks these). */
  list(prefix: string): AsyncIterable<{ key: string; modified: Date }>;
  /**
   * Removes the store's own leftovers older than `before`: temp files of writes cut off by a crash,
   * and multipart uploads that `isOpen` (given our upload id, or the store's own) does not know.
   * Returns how many it removed.
   */
  sweepTemp(before: Date, isOpen: (id: string) => boolean): Promise<number>;
}

/** Reads a whole (small) object stream into memory. */
export async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Puts a file as a stream, never read whole into this process's memory (the process that serves
 * HTTP runs ingest too). The stream is closed even when the store fails before reading it all.
 */
export async function putFile(store: Pick<BlobStore, 'put'>, key: string, file: string, contentType?: string): Promise<void> {
  const body = fs.createReadStream(file);
  try {
    await store.put(key, body, contentType);
  } finally {
    body.destroy();
  }
}
