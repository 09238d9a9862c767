import pLimit from 'p-limit';
import pRetry from 'p-retry';
import {
  sendableText,
  MSG_LIB,
  MSG_MEDIA,
  UPLOAD_CHUNK_SIZE,
  UPLOAD_FILE_CONCURRENCY,
  UPLOAD_PART_ATTEMPTS,
  UPLOAD_PART_CONCURRENCY,
  UPLOAD_SHOWN_PROGRESS_CAP,
  type Media,
  type UploadStartAnswer,
  type UploadStartBody,
} from '../../contract';

/** Upload item statuses (libraries spec section 3). */
export type UploadStatus = 'queued' | 'uploading' | 'success' | 'error' | 'cancelled';

export interface UploadDestination {
  libraryId: string;
  folderId: string;
}

export interface UploadItem {
  uuid: string;
  /** The batch the file came in with (one drop, one pick, one retry). */
  batchId: number;
  destination: UploadDestination;
  status: UploadStatus;
  filename: string;
  size: number;
  /** Known once the start call answered. */
  mediaId: string | null;
  /** Fraction of the bytes sent (0..1); the UI shows it through shownProgress. */
  progress: number;
  /** Seconds left at the current rate; null until there is a rate to go by. */
  eta: number | null;
  file: File;
  fingerprint: string;
  media: Media | null;
  error: string | null;
  uploadFinishData: { partUrls: string[]; opaqueData: string } | null;
  startedAt: number | null;
}

export interface RejectedFile {
  id: string;
  name: string;
  size: number;
  reason: string;
  libraryId: string;
}

export interface UploadQueueState {
  items: UploadItem[];
  rejected: RejectedFile[];
  /** Bumped whenever media appear, finish or are cleared on the server, so pages refetch. */
  version: number;
}

/** Everything the queue does over the network (and the fingerprint worker), so tests can fake it. */
export interface UploadTransport {
  fingerprint(file: File): Promise<string>;
  start(destination: UploadDestination, body: UploadStartBody): Promise<UploadStartAnswer>;
  /** PUTs one raw slice; reports bytes sent so far; rejects on a non-2xx answer or when aborted. */
  putPart(url: string, chunk: Blob, onProgress: (loadedBytes: number) => void, signal: AbortSignal): Promise<void>;
  finish(destination: UploadDestination, mediaId: string, opaqueData: string): Promise<Media>;
  /** Abandons unfinished uploads on the server: the given media, or all of the library without ids. */
  clear(libraryId: string, mediaIds?: string[]): Promise<unknown>;
}

/** How a batch of files added together ended, once none of them is queued or uploading any more. */
export interface UploadBatchOutcome {
  id: number;
  succeeded: number;
  /** The files that failed, each with its reason. */
  failed: Array<{ filename: string; message: string }>;
  /** Files cleared (by the user, or by the end of the session) before they finished. */
  cancelled: number;
  /** Files the server refused as already in the folder once they were started. */
  duplicates: number;
}

export interface UploadEvents {
  /** A batch of `count` files entered the queue (a retry is a batch of one). */
  queued(batch: { id: number; count: number }): void;
  /** The share of a batch's bytes sent so far (0..1). */
  batchProgress(id: number, fraction: number): void;
  /** Every file of the batch has finished, one way or another: the app reports the batch once, here. */
  batchSettled(outcome: UploadBatchOutcome): void;
  duplicates(count: number): void;
  failed(item: UploadItem, message: string): void;
  cleared(what: UploadItem | 'all', ok: boolean): void;
  drained(summary: { succeeded: number; failed: number }): void;
}

interface Batch {
  outcome: UploadBatchOutcome;
  /** Bytes of each file of the batch that was queued. */
  sizes: Map<string, number>;
  /** Files still queued or uploading. */
  pending: Set<string>;
}

export interface UploadQueueOptions {
  fileConcurrency: number;
  partConcurrency: number;
  partAttempts: number;
  chunkSize: number;
  /** Wait before a part's second attempt, doubling for each further one. */
  retryBaseMs: number;
  now: () => number;
  /** Wraps a File before it enters state (valtio's ref: a File must not become a proxy). */
  keepFile: (file: File) => File;
  newId: () => string;
}

const DEFAULTS: UploadQueueOptions = {
  fileConcurrency: UPLOAD_FILE_CONCURRENCY,
  partConcurrency: UPLOAD_PART_CONCURRENCY,
  partAttempts: UPLOAD_PART_ATTEMPTS,
  chunkSize: UPLOAD_CHUNK_SIZE,
  retryBaseMs: 500,
  now: () => Date.now(),
  keepFile: (f) => f,
  newId: () => globalThis.crypto.randomUUID(),
};

/** Progress as shown: capped at 99% until the finish call has answered (section 4). */
export const shownProgress = (item: Pick<UploadItem, 'status' | 'progress'>) =>
  item.status === 'success' ? 1 : Math.min(item.progress, UPLOAD_SHOWN_PROGRESS_CAP);

/** Seconds left at the average rate so far; null before anything measurable was sent. */
export function etaSeconds(sentBytes: number, totalBytes: number, elapsedMs: number): number | null {
  if (sentBytes <= 0 || elapsedMs < 500) return null;
  const rate = sentBytes / (elapsedMs / 1000);
  return Math.max(0, Math.ceil((totalBytes - sentBytes) / rate));
}

/** Part numbers a finish answer says are missing ("The upload is missing parts 2, 5."). */
export function missingPartsOf(message: string): number[] {
  const m = /missing parts? ([\d,\s]+)/i.exec(message);
  return m
    ? m[1]!
        .split(/[,\s]+/)
        .filter(Boolean)
        .map(Number)
    : [];
}

const isActive = (s: UploadStatus) => s === 'queued' || s === 'uploading';

class ChunkError extends Error {
  constructor() {
    super(MSG_MEDIA.chunkFailed);
  }
}
class Cancelled extends Error {
  constructor() {
    super(MSG_LIB.uploadCleared);
  }
}

const errorCode = (e: unknown) => (typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined);
const messageOf = (e: unknown) => (e instanceof Error && e.message ? e.message : MSG_MEDIA.unexpectedStatus);

/**
 * The upload queue (libraries spec sections 4 and 9): fingerprints files, skips duplicates, then
 * uploads 2 files at a time, each in 20 MiB parts sent 8 at a time with 3 attempts per part, and
 * finishes them. State lives in the object it is given (a valtio proxy in the app), so the UI
 * renders it; the queue itself knows nothing of React or toasts.
 */
export class UploadQueue {
  private readonly options: UploadQueueOptions;
  private readonly controllers = new Map<string, AbortController>();
  /** Media whose upload a clear already abandoned on the server. */
  private readonly serverCleared = new Set<string>();
  private active = 0;
  private batch = { succeeded: 0, failed: 0, touched: false };
  private readonly batches = new Map<number, Batch>();
  private nextBatchId = 1;

  constructor(
    private readonly state: UploadQueueState,
    private readonly transport: UploadTransport,
    private readonly events: Partial<UploadEvents> = {},
    options: Partial<UploadQueueOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** The live (state-held) item; undefined once it was cleared. */
  private item(uuid: string) {
    return this.state.items.find((i) => i.uuid === uuid);
  }

  /**
   * Queues files for a folder. Files whose fingerprint is already in the folder (`knownUniqueIds`),
   * already on its way there, or repeated in the batch are skipped as duplicates.
   */
  async add(files: File[], destination: UploadDestination, knownUniqueIds: Iterable<string> = []) {
    const known = new Set(knownUniqueIds);
    for (const i of this.state.items)
      if (i.destination.folderId === destination.folderId && i.status !== 'error' && i.status !== 'cancelled') known.add(i.fingerprint);
    let duplicates = 0;
    let queued = 0;
    const batch = this.openBatch();
    // One at a time: the worker reads two small slices per file, and order is kept.
    for (const file of files) {
      let fingerprint: string;
      try {
        fingerprint = await this.transport.fingerprint(file);
      } catch (e) {
        const item = this.push(file, destination, '', 'error', messageOf(e), batch.outcome.id);
        batch.outcome.failed.push({ filename: item.filename, message: messageOf(e) });
        this.events.failed?.(item, messageOf(e));
        continue;
      }
      if (known.has(fingerprint)) {
        duplicates++;
        continue;
      }
      known.add(fingerprint);
      const item = this.push(file, destination, fingerprint, 'queued', null, batch.outcome.id);
      batch.pending.add(item.uuid);
      batch.sizes.set(item.uuid, item.size);
      queued++;
    }
    if (duplicates) this.events.duplicates?.(duplicates);
    if (queued) this.events.queued?.({ id: batch.outcome.id, count: queued });
    this.settleBatchIfDone(batch.outcome.id);
    this.pump();
    return { queued, duplicates };
  }

  private openBatch(): Batch {
    const batch: Batch = {
      outcome: { id: this.nextBatchId++, succeeded: 0, failed: [], cancelled: 0, duplicates: 0 },
      sizes: new Map(),
      pending: new Set(),
    };
    this.batches.set(batch.outcome.id, batch);
    return batch;
  }

  /**
   * Records how one file of a batch ended (the first word counts: a file cleared while its upload
   * winds down stays cleared), reports the batch's progress, and settles the batch when it was its last.
   */
  private settleInBatch(
    item: Pick<UploadItem, 'uuid' | 'batchId' | 'filename'>,
    how: 'succeeded' | 'failed' | 'cancelled' | 'duplicate',
    message = '',
  ) {
    const batch = this.batches.get(item.batchId);
    if (!batch?.pending.delete(item.uuid)) return;
    const { outcome } = batch;
    if (how === 'succeeded') outcome.succeeded++;
    else if (how === 'failed') outcome.failed.push({ filename: item.filename, message });
    else if (how === 'cancelled') outcome.cancelled++;
    else outcome.duplicates++;
    this.reportBatch(item.batchId);
    this.settleBatchIfDone(item.batchId);
  }

  private settleBatchIfDone(id: number) {
    const batch = this.batches.get(id);
    if (!batch || batch.pending.size) return;
    this.batches.delete(id);
    const { outcome } = batch;
    if (outcome.succeeded || outcome.failed.length || outcome.cancelled || outcome.duplicates) this.events.batchSettled?.(outcome);
  }

  /** The batch's share of bytes sent: finished files count whole, and it stays under 1 until the last is done. */
  private reportBatch(id: number) {
    const batch = this.batches.get(id);
    if (!batch || !this.events.batchProgress) return;
    let sent = 0;
    let total = 0;
    for (const [uuid, size] of batch.sizes) {
      total += size;
      sent += batch.pending.has(uuid) ? (this.item(uuid)?.progress ?? 0) * size : size;
    }
    this.events.batchProgress(id, total ? Math.min(UPLOAD_SHOWN_PROGRESS_CAP, sent / total) : 0);
  }

  private push(
    file: File,
    destination: UploadDestination,
    fingerprint: string,
    status: UploadStatus,
    error: string | null,
    batchId: number,
  ): UploadItem {
    this.state.items.push({
      uuid: this.options.newId(),
      batchId,
      destination: { ...destination },
      status,
      // The name as the server takes it: a file may be named with a tab or a line break.
      filename: sendableText(file.name),
      size: file.size,
      mediaId: null,
      progress: 0,
      eta: null,
      file: this.options.keepFile(file),
      fingerprint,
      media: null,
      error,
      uploadFinishData: null,
      startedAt: null,
    });
    return this.state.items[this.state.items.length - 1]!;
  }

  /** Records files a drop could not take (shown under Failed Uploads). */
  reject(files: Array<{ name: string; size: number }>, libraryId: string, reason: string) {
    for (const f of files) this.state.rejected.push({ id: this.options.newId(), name: f.name, size: f.size, reason, libraryId });
  }

  dismissRejected(id: string) {
    this.state.rejected = this.state.rejected.filter((r) => r.id !== id);
  }

  /** Starts queued uploads while fewer than the file limit are running. */
  private pump() {
    while (this.active < this.options.fileConcurrency) {
      const next = this.state.items.find((i) => i.status === 'queued' && !this.controllers.has(i.uuid));
      if (!next) break;
      this.active++;
      const controller = new AbortController();
      this.controllers.set(next.uuid, controller);
      this.batch.touched = true;
      void this.run(next.uuid, controller.signal).finally(() => {
        this.active--;
        this.controllers.delete(next.uuid);
        this.pump();
        this.checkDrained();
      });
    }
  }

  private checkDrained() {
    if (this.active > 0 || this.state.items.some((i) => i.status === 'queued') || !this.batch.touched) return;
    const summary = { succeeded: this.batch.succeeded, failed: this.batch.failed };
    this.batch = { succeeded: 0, failed: 0, touched: false };
    // Finished items have handed over to the media list; only failures stay to be retried or cleared.
    this.state.items = this.state.items.filter((i) => i.status !== 'success');
    this.events.drained?.(summary);
  }

  private async run(uuid: string, signal: AbortSignal) {
    const first = this.item(uuid);
    if (!first) return;
    const { destination, filename, size, fingerprint } = first;
    const parts = Math.max(1, Math.ceil(size / this.options.chunkSize));
    let mediaId: string | null = null;
    try {
      const answer = await this.transport.start(destination, {
        filename,
        size,
        parts,
        uniqueId: fingerprint,
        deduplicationPolicy: { onConflict: 'error' },
      });
      mediaId = answer.media._id;
      const item = this.item(uuid);
      if (!item || signal.aborted) throw new Cancelled();
      item.mediaId = mediaId;
      item.media = answer.media;
      this.state.version++;
      if (!answer.partUrls?.length || !answer.opaqueData) {
        // Nothing to send (the spec's "no upload data"): the item is done.
        this.succeed(uuid, answer.media);
        return;
      }
      item.uploadFinishData = { partUrls: [...answer.partUrls], opaqueData: answer.opaqueData };
      item.status = 'uploading';
      item.startedAt = this.options.now();
      const loaded = new Map<number, number>();
      const all = Array.from({ length: parts }, (_, i) => i + 1);
      await this.sendParts(uuid, all, answer.partUrls, loaded, signal);
      let media: Media;
      try {
        media = await this.transport.finish(destination, mediaId, answer.opaqueData);
      } catch (e) {
        // A finish that names missing parts leaves the upload open: send those again, finish again.
        const missing = errorCode(e) === 'bad_request' ? missingPartsOf(messageOf(e)).filter((n) => n >= 1 && n <= parts) : [];
        if (!missing.length || signal.aborted) throw e;
        for (const n of missing) loaded.delete(n);
        await this.sendParts(uuid, missing, answer.partUrls, loaded, signal);
        media = await this.transport.finish(destination, mediaId, answer.opaqueData);
      }
      if (!this.item(uuid) || signal.aborted) throw new Cancelled();
      this.succeed(uuid, media);
    } catch (e) {
      const item = this.item(uuid);
      if (e instanceof Cancelled || signal.aborted || !item) {
        // Cleared while the start call was out: the media it created is abandoned quietly.
        if (mediaId && !item && !this.serverCleared.has(mediaId))
          await this.transport.clear(destination.libraryId, [mediaId]).catch(() => undefined);
        return;
      }
      if (errorCode(e) === 'conflict') {
        // The server knows this file in the folder already: a duplicate, not a failure.
        this.state.items = this.state.items.filter((i) => i.uuid !== uuid);
        this.events.duplicates?.(1);
        this.settleInBatch(item, 'duplicate');
        return;
      }
      const message = messageOf(e);
      item.status = 'error';
      item.error = message;
      item.eta = null;
      this.batch.failed++;
      this.state.version++;
      this.events.failed?.(item, message);
      this.settleInBatch(item, 'failed', message);
    }
  }

  private succeed(uuid: string, media: Media) {
    const item = this.item(uuid);
    if (!item) return;
    item.status = 'success';
    item.progress = 1;
    item.eta = 0;
    item.media = media;
    item.mediaId = media._id;
    this.batch.succeeded++;
    this.state.version++;
    this.settleInBatch(item, 'succeeded');
  }

  /**
   * Sends the given parts, `partConcurrency` at a time (p-limit), each tried `partAttempts` times
   * (p-retry); a part that fails every attempt fails the file.
   */
  private async sendParts(uuid: string, numbers: number[], urls: string[], loaded: Map<number, number>, signal: AbortSignal) {
    const { chunkSize, partAttempts, partConcurrency } = this.options;
    const first = this.item(uuid);
    if (!first) throw new Cancelled();
    const { file, size } = first;
    // One part giving up stops its siblings, so a failed file does not keep the line busy.
    const local = new AbortController();
    const stop = () => local.abort();
    signal.addEventListener('abort', stop);
    const report = () => {
      const item = this.item(uuid);
      if (!item) return;
      let sent = 0;
      for (const v of loaded.values()) sent += v;
      item.progress = Math.min(1, sent / size);
      item.eta = etaSeconds(sent, size, this.options.now() - (item.startedAt ?? this.options.now()));
      this.reportBatch(item.batchId);
    };
    const sendOne = (n: number) => {
      const start = (n - 1) * chunkSize;
      const chunk = file.slice(start, Math.min(size, start + chunkSize));
      const put = async () => {
        if (local.signal.aborted) throw new Cancelled();
        await this.transport.putPart(urls[n - 1]!, chunk, (bytes) => (loaded.set(n, Math.min(bytes, chunk.size)), report()), local.signal);
        loaded.set(n, chunk.size);
        report();
      };
      return pRetry(put, {
        retries: partAttempts - 1,
        minTimeout: this.options.retryBaseMs,
        factor: 2,
        randomize: false,
        onFailedAttempt: () => (loaded.set(n, 0), report()),
        shouldRetry: () => !local.signal.aborted,
      }).catch(() => {
        throw local.signal.aborted ? new Cancelled() : new ChunkError();
      });
    };
    const limit = pLimit(partConcurrency);
    let failure: unknown = null;
    const settled = numbers.map((n) =>
      limit(() => (failure === null ? sendOne(n) : undefined)).catch((e: unknown) => {
        if (failure === null) failure = e;
        local.abort();
      }),
    );
    try {
      await Promise.all(settled);
    } finally {
      signal.removeEventListener('abort', stop);
    }
    if (signal.aborted) throw new Cancelled();
    if (failure !== null) throw failure;
  }

  /** Clears one upload: stops it, removes it, and abandons its media on the server. */
  async cancel(uuid: string) {
    const item = this.item(uuid);
    if (!item) return;
    const { mediaId, destination } = item;
    item.status = 'cancelled';
    this.controllers.get(uuid)?.abort();
    this.state.items = this.state.items.filter((i) => i.uuid !== uuid);
    this.settleInBatch(item, 'cancelled');
    let ok = true;
    if (mediaId) {
      this.serverCleared.add(mediaId);
      try {
        await this.transport.clear(destination.libraryId, [mediaId]);
      } catch {
        ok = false;
      }
    }
    this.state.version++;
    this.events.cleared?.(item, ok);
    this.checkDrained();
  }

  /**
   * Clears every unfinished upload of a library: local ones stop, and the server abandons all of
   * its unfinished uploads (also those a closed tab left behind).
   */
  async clearAll(libraryId: string) {
    const mine = this.state.items.filter((i) => i.destination.libraryId === libraryId && i.status !== 'success');
    for (const item of mine) {
      item.status = 'cancelled';
      this.controllers.get(item.uuid)?.abort();
    }
    const ids = new Set(mine.map((i) => i.uuid));
    this.state.items = this.state.items.filter((i) => !ids.has(i.uuid));
    for (const item of mine) this.settleInBatch(item, 'cancelled');
    let ok = true;
    try {
      await this.transport.clear(libraryId);
    } catch {
      ok = false;
    }
    this.state.version++;
    this.events.cleared?.('all', ok);
    this.checkDrained();
  }

  /** Sends a failed upload again from the start (its abandoned media is cleared first). */
  async retry(uuid: string) {
    const item = this.item(uuid);
    if (!item || item.status !== 'error' || !item.fingerprint) return;
    if (item.mediaId) await this.transport.clear(item.destination.libraryId, [item.mediaId]).catch(() => undefined);
    const live = this.item(uuid);
    if (!live || live.status !== 'error') return;
    const batch = this.openBatch();
    batch.pending.add(uuid);
    batch.sizes.set(uuid, live.size);
    Object.assign(live, {
      batchId: batch.outcome.id,
      status: 'queued',
      progress: 0,
      eta: null,
      error: null,
      mediaId: null,
      media: null,
      uploadFinishData: null,
      startedAt: null,
    });
    this.events.queued?.({ id: batch.outcome.id, count: 1 });
    this.pump();
  }

  /** Stops everything locally without server calls (the session ended; the server expires the uploads). */
  abortAll() {
    for (const c of this.controllers.values()) c.abort();
    for (const item of this.state.items) this.settleInBatch(item, 'cancelled');
    this.state.items = [];
    this.state.rejected = [];
    this.batch = { succeeded: 0, failed: 0, touched: false };
  }

  /** Whether any upload is queued or running (the page warns before unload then). */
  get busy() {
    return this.state.items.some((i) => isActive(i.status));
  }
}
