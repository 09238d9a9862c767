import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { readAll, type BlobStore, type MultipartRef, type StoredPart } from './blobStore';
import { contentDisposition } from '../../http/contentDisposition';

export interface S3Options {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * Any S3-compatible store: the browser PUTs parts straight to presigned multipart part URLs. Crash
 * safety: a PutObject or CompleteMultipartUpload makes an object appear whole or not at all, so a
 * killed write never leaves a readable partial object; cut-off multipart uploads are aborted by the
 * blob sweep job (`sweepTemp`).
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly s3: S3Client;
  constructor(private readonly o: S3Options) {
    this.s3 = new S3Client({
      region: o.region,
      endpoint: o.endpoint,
      forcePathStyle: o.forcePathStyle,
      credentials: o.accessKeyId && o.secretAccessKey ? { accessKeyId: o.accessKeyId, secretAccessKey: o.secretAccessKey } : undefined,
      // The SDK's default checksums send a stream as an aws-chunked body with a trailing checksum,
      // which S3-compatible servers (MinIO before 2023, s3rver, several clouds) store framing and
      // all; checksums are sent only where an operation requires them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async startMultipart(_uploadId: string, key: string) {
    const r = await this.s3.send(new CreateMultipartUploadCommand({ Bucket: this.o.bucket, Key: key }));
    return { storeUploadId: r.UploadId! };
  }

  partUrl(ref: MultipartRef, partNumber: number, expiresAt: Date) {
    const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    return getSignedUrl(
      this.s3,
      new UploadPartCommand({ Bucket: this.o.bucket, Key: ref.key, UploadId: ref.storeUploadId!, PartNumber: partNumber }),
      {
        expiresIn,
      },
    );
  }

  async listParts(ref: MultipartRef, reported: StoredPart[]): Promise<StoredPart[]> {
    const out: StoredPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const r = await this.s3.send(
          new ListPartsCommand({ Bucket: this.o.bucket, Key: ref.key, UploadId: ref.storeUploadId!, PartNumberMarker: marker }),
        );
        for (const p of r.Parts ?? []) out.push({ partNumber: p.PartNumber!, size: p.Size ?? null, etag: p.ETag ?? null });
        if (!r.IsTruncated) break;
        marker = r.NextPartNumberMarker;
      }
      return out;
    } catch (err) {
      // Some S3-compatible servers (s3rver among them) have no ListParts: trust the client's ETags,
      // and the assembled object's size and fingerprint are checked afterwards.
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 405 || status === 501 || (err as Error).name === 'NotImplemented' || (err as Error).name === 'MethodNotAllowed')
        return reported;
      throw err;
    }
  }

  async completeMultipart(ref: MultipartRef, parts: StoredPart[]) {
    await this.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: this.o.bucket,
        Key: ref.key,
        UploadId: ref.storeUploadId!,
        MultipartUpload: { Parts: parts.map((p) => ({ PartNumber: p.partNumber, ETag: p.etag ?? undefined })) },
      }),
    );
  }

  async abortMultipart(ref: MultipartRef) {
    if (!ref.storeUploadId) return;
    await this.s3
      .send(new AbortMultipartUploadCommand({ Bucket: this.o.bucket, Key: ref.key, UploadId: ref.storeUploadId }))
      .catch(() => undefined);
  }

  downloadUrl(key: string, opts: { filename?: string; expiresInSeconds: number; inline?: boolean }) {
    // As the local store's route writes it.
    const disposition = opts.filename ? contentDisposition(opts.filename, opts.inline ? 'inline' : 'attachment') : undefined;
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.o.bucket, Key: key, ResponseContentDisposition: disposition }), {
      expiresIn: opts.expiresInSeconds,
    });
  }

  async read(key: string, range?: { start: number; end: number }) {
    const r = await this.s3.send(
      new GetObjectCommand({ Bucket: this.o.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end - 1}` : undefined }),
    );
    return r.Body as Readable;
  }

  toolInput(key: string) {
    return this.downloadUrl(key, { expiresInSeconds: 3600 });
  }

  /**
   * A PutObject needs the body's length up front (without it the SDK sends an aws-chunked body that
   * S3-compatible servers store framing and all): a file stream is measured, any other stream read.
   */
  async put(key: string, body: Buffer | Readable, contentType?: string) {
    const sized =
      body instanceof fs.ReadStream && typeof body.path === 'string'
        ? { Body: body, ContentLength: (await fs.promises.stat(body.path)).size }
        : { Body: Buffer.isBuffer(body) ? body : await readAll(body) };
    await this.s3.send(new PutObjectCommand({ Bucket: this.o.bucket, Key: key, ContentType: contentType, ...sized }));
  }

  async exists(key: string) {
    return this.s3.send(new HeadObjectCommand({ Bucket: this.o.bucket, Key: key })).then(
      () => true,
      () => false,
    );
  }

  async size(key: string) {
    return (await this.s3.send(new HeadObjectCommand({ Bucket: this.o.bucket, Key: key }))).ContentLength ?? 0;
  }

  async delete(key: string) {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.o.bucket, Key: key }));
  }

  async deletePrefix(prefix: string) {
    let token: string | undefined;
    do {
      const r = await this.s3.send(new ListObjectsV2Command({ Bucket: this.o.bucket, Prefix: prefix, ContinuationToken: token }));
      const keys = (r.Contents ?? []).map((c) => ({ Key: c.Key! }));
      if (keys.length) await this.s3.send(new DeleteObjectsCommand({ Bucket: this.o.bucket, Delete: { Objects: keys } }));
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modified: Date }> {
    let token: string | undefined;
    do {
      const r = await this.s3.send(new ListObjectsV2Command({ Bucket: this.o.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const c of r.Contents ?? []) if (c.Key) yield { key: c.Key, modified: c.LastModified ?? new Date() };
      token = r.IsTruncated ? r.NextContinuationToken : undefined;
    } while (token);
  }

  async sweepTemp(before: Date, isOpen: (id: string) => boolean) {
    let removed = 0;
    let keyMarker: string | undefined;
    let idMarker: string | undefined;
    try {
      for (;;) {
        const r = await this.s3.send(
          new ListMultipartUploadsCommand({ Bucket: this.o.bucket, KeyMarker: keyMarker, UploadIdMarker: idMarker }),
        );
        for (const u of r.Uploads ?? []) {
          if (!u.Key || !u.UploadId || isOpen(u.UploadId) || (u.Initiated && u.Initiated >= before)) continue;
          await this.abortMultipart({ uploadId: '', key: u.Key, storeUploadId: u.UploadId });
          removed++;
        }
        if (!r.IsTruncated) break;
        keyMarker = r.NextKeyMarker;
        idMarker = r.NextUploadIdMarker;
      }
    } catch (err) {
      // S3-compatible servers without ListMultipartUploads (s3rver): the bucket's lifecycle rule
      // (AbortIncompleteMultipartUpload) is the only cleanup there.
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 405 && status !== 501 && (err as Error).name !== 'NotImplemented') throw err;
    }
    return removed;
  }
}
