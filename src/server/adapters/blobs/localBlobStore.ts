import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { BlobStore, MultipartRef, StoredPart } from './blobStore';

export class PartTooLargeError extends Error {}

/**
 * Files under DATA_DIR/blobs. A multipart upload preallocates the final file and each part is written
 * at its offset, so finishing is a rename, never a copy. URLs are HMAC-signed with an expiry.
 *
 * Crash safety: nothing is ever written under an object's final name. Uploads grow in `incoming/`,
 * every other write in `tmp/`, and a finished file is renamed into `objects/` (atomic within one
 * filesystem), so a process killed mid-write leaves a temp file (removed by the blob sweep job), never
 * a half-written object that would be served, played or indexed.
 */
export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  constructor(
    private readonly root: string,
    private readonly secret: string,
    private readonly baseUrl: () => string,
  ) {
    fs.mkdirSync(path.join(root, 'objects'), { recursive: true });
    fs.mkdirSync(path.join(root, 'incoming'), { recursive: true });
    fs.mkdirSync(path.join(root, 'tmp'), { recursive: true });
  }

  objectPath(key: string) {
    const p = path.join(this.root, 'objects', key);
    if (!p.startsWith(path.join(this.root, 'objects') + path.sep)) throw new Error('bad blob key');
    return p;
  }
  incomingPath(uploadId: string) {
    return path.join(this.root, 'incoming', uploadId.replace(/[^a-z0-9-]/gi, ''));
  }

  sign(parts: string[]): string {
    return createHmac('sha256', this.secret).update(parts.join('\n')).digest('base64url');
  }
  verify(parts: string[], sig: string): boolean {
    const want = Buffer.from(this.sign(parts));
    const got = Buffer.from(sig);
    return want.length === got.length && timingSafeEqual(want, got);
  }

  async startMultipart(uploadId: string, _key: string, size: number) {
    const fh = await fs.promises.open(this.incomingPath(uploadId), 'w');
    await fh.truncate(size);
    await fh.close();
    return { storeUploadId: null };
  }

  /**
   * Streams one part into its place in the preallocated file. Resolves with the bytes written, or
   * rejects (without keeping anything) as soon as the body exceeds `expected` bytes.
   */
  async writePart(uploadId: string, offset: number, expected: number, body: Readable): Promise<number> {
    // Chunks are gathered into ~1 MiB batches and written with one writev each: far fewer syscalls
    // than a write per 64 KiB socket chunk.
    const fh = await fs.promises.open(this.incomingPath(uploadId), 'r+');
    let written = 0;
    let batch: Buffer[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (!batchBytes) return;
      await fh.writev(batch, offset + written - batchBytes);
      batch = [];
      batchBytes = 0;
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        written += chunk.length;
        if (written > expected) throw new PartTooLargeError();
        batch.push(chunk);
        batchBytes += chunk.length;
        if (batchBytes >= 1 << 20) await flush();
      }
      await flush();
    } finally {
      await fh.close();
    }
    return written;
  }

  async partUrl(ref: MultipartRef, partNumber: number, expiresAt: Date) {
    const exp = String(Math.floor(expiresAt.getTime() / 1000));
    const sig = this.sign(['part', ref.uploadId, String(partNumber), exp]);
    return `${this.baseUrl()}/blobs/upload/${ref.uploadId}/${partNumber}?exp=${exp}&sig=${sig}`;
  }

  async listParts(_ref: MultipartRef, knownParts: StoredPart[]) {
    return knownParts;
  }

  async completeMultipart(ref: MultipartRef) {
    const dest = this.objectPath(ref.key);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    await fs.promises.rename(this.incomingPath(ref.uploadId), dest);
  }

  async abortMultipart(ref: MultipartRef) {
    await fs.promises.rm(this.incomingPath(ref.uploadId), { force: true });
  }

  async downloadUrl(key: string, opts: { filename?: string; expiresInSeconds: number; inline?: boolean }) {
    const exp = String(Math.floor(Date.now() / 1000) + opts.expiresInSeconds);
    const filename = opts.filename ?? '';
    const disposition = opts.inline ? 'inline' : 'attachment';
    const sig = this.sign(['get', key, exp, filename, disposition]);
    const q = new URLSearchParams({ exp, sig, d: disposition, ...(filename ? { filename } : {}) });
    return `${this.baseUrl()}/blobs/file/${key.split('/').map(encodeURIComponent).join('/')}?${q}`;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    return fs.createReadStream(this.objectPath(key), range ? { start: range.start, end: range.end - 1 } : {});
  }

  async toolInput(key: string) {
    return this.objectPath(key);
  }

  async put(key: string, body: Buffer | Readable) {
    const dest = this.objectPath(key);
    await fs.promises.mkdir(path.dirname(dest), { recursive: true });
    // Written whole under a temp name, then renamed: readers see the old object or the new one,
    // never a prefix of it (writing `dest` directly left a truncated file after a kill).
    const tmp = path.join(this.root, 'tmp', `${randomUUID()}.part`);
    try {
      if (Buffer.isBuffer(body)) await fs.promises.writeFile(tmp, body);
      else await pipeline(body, fs.createWriteStream(tmp));
      await fs.promises.rename(tmp, dest);
    } catch (err) {
      await fs.promises.rm(tmp, { force: true });
      throw err;
    }
  }

  async exists(key: string) {
    return fs.promises.access(this.objectPath(key)).then(
      () => true,
      () => false,
    );
  }

  async size(key: string) {
    return (await fs.promises.stat(this.objectPath(key))).size;
  }

  async delete(key: string) {
    await fs.promises.rm(this.objectPath(key), { force: true });
  }

  async deletePrefix(prefix: string) {
    await fs.promises.rm(this.objectPath(prefix.replace(/\/$/, '')), { recursive: true, force: true });
  }

  async *list(prefix: string): AsyncIterable<{ key: string; modified: Date }> {
    const objects = path.join(this.root, 'objects');
    const walk = async function* (dir: string): AsyncGenerator<{ key: string; modified: Date }> {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        return; // removed meanwhile, or never made
      }
      for (const e of entries) {
        const full = path.join(dir, e.name);
        if (e.isDirectory()) yield* walk(full);
        else if (e.isFile()) {
          const st = await fs.promises.stat(full).catch(() => null);
          if (st) yield { key: path.relative(objects, full).split(path.sep).join('/'), modified: st.mtime };
        }
      }
    };
    const top = prefix.replace(/\/$/, '');
    yield* walk(top ? this.objectPath(top) : objects);
  }

  async sweepTemp(before: Date, isOpen: (id: string) => boolean) {
    let removed = 0;
    for (const [dir, keep] of [
      ['tmp', () => false],
      ['incoming', isOpen],
    ] as const) {
      const full = path.join(this.root, dir);
      for (const name of await fs.promises.readdir(full).catch(() => [] as string[])) {
        const st = await fs.promises.stat(path.join(full, name)).catch(() => null);
        if (!st || st.mtime >= before || keep(name)) continue;
        await fs.promises.rm(path.join(full, name), { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}
