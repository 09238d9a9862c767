import fs from 'node:fs';
import path from 'node:path';
import type { BlobStore } from '../../adapters/blobs/blobStore';
import type { BlobRefsRepository } from './blobRefs.repository';
import { BLOB_PREFIXES, parseDerivedKey } from './blobKeys';

/**
 * How old an unreferenced blob must be before the sweep removes it. Writes always land before the
 * row that names them (an upload's original before its media row points at it, a render's output
 * before `completed`, ingest's derived files while the media row exists), and none of those windows
 * lasts a day; a day also leaves time to notice and undo a bad deploy before anything is deleted.
 */
export const BLOB_SWEEP_GRACE_MS = 24 * 3600 * 1000;

const BATCH = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Removes blobs no database row refers to, and the store's temp leftovers, once they are older than
 * the grace period: what a crash between a write and its row (or a delete cut short) leaves behind.
 * `media/` originals and `renders/` outputs are kept while a media, upload or render row names them;
 * `derived/<mediaId>/` files while that media exists. `demo/` samples are copied in at every boot and
 * other prefixes are not ours to judge, so both are left alone.
 */
export class BlobSweepService {
  constructor(
    private readonly d: {
      blobs: BlobStore;
      refs: BlobRefsRepository;
      /** Scratch folders of jobs (ingest stages, link downloads): what a killed job left there goes after the grace period too. */
      workDirs?: string[];
      now?: () => Date;
      log?: { info(o: object, msg: string): void };
    },
  ) {}

  async sweep(graceMs = BLOB_SWEEP_GRACE_MS): Promise<{ objects: number; temp: number; work: number }> {
    const before = new Date((this.d.now?.() ?? new Date()).getTime() - graceMs);
    let objects = 0;
    for (const prefix of [BLOB_PREFIXES.media, BLOB_PREFIXES.renders, BLOB_PREFIXES.derived]) {
      let batch: string[] = [];
      const flush = async () => {
        const keep =
          prefix === BLOB_PREFIXES.derived
            ? await this.d.refs.existingMedia([...new Set(batch.map(derivedMediaId).filter((id): id is string => !!id))])
            : await this.d.refs.referencedKeys(batch);
        for (const key of batch) {
          const owner = prefix === BLOB_PREFIXES.derived ? derivedMediaId(key) : key;
          if (owner === null || keep.has(owner)) continue;
          await this.d.blobs.delete(key);
          objects++;
        }
        batch = [];
      };
      for await (const o of this.d.blobs.list(prefix)) {
        if (o.modified >= before) continue;
        batch.push(o.key);
        if (batch.length >= BATCH) await flush();
      }
      if (batch.length) await flush();
    }
    const open = await this.d.refs.openUploadIds();
    const temp = await this.d.blobs.sweepTemp(before, (id) => open.has(id));
    const work = this.sweepWork(before);
    if (objects || temp || work) this.d.log?.info({ objects, temp, work }, 'blob sweep removed orphans');
    return { objects, temp, work };
  }

  /** Entries of the scratch folders untouched since `before` (the folders themselves, and one inside another, stay). */
  private sweepWork(before: Date): number {
    const roots = new Set((this.d.workDirs ?? []).map((d) => path.resolve(d)));
    let removed = 0;
    for (const root of roots) {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(root, { withFileTypes: true });
      } catch {
        continue; // not made yet
      }
      for (const e of entries) {
        const full = path.join(root, e.name);
        if (roots.has(full)) continue;
        const stat = fs.statSync(full, { throwIfNoEntry: false });
        if (!stat || stat.mtime >= before) continue;
        fs.rmSync(full, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }
}

/** `derived/<mediaId>/…` → mediaId; null for a key of another shape, which is kept. */
function derivedMediaId(key: string): string | null {
  const id = parseDerivedKey(key)?.mediaId ?? '';
  return UUID.test(id) ? id : null;
}
