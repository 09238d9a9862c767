import { describe, expect, it, vi } from 'vitest';
import { MSG_MEDIA, type Media, type UploadStartBody } from '../../contract';
import { missingPartsOf, shownProgress, UploadQueue, type UploadQueueState, type UploadTransport } from './uploadQueue';

const dest = { libraryId: 'lib-1', folderId: 'root-1' };
const CHUNK = 10;

const file = (name: string, size: number, fill = name.length) => new File([new Uint8Array(size).fill(fill)], name);
const media = (id: string, status: Media['status'] = 'uploading') => ({ _id: id, status }) as Media;
const tick = () => new Promise((r) => setTimeout(r, 0));

/** Resolves the returned promise when `check` holds, polling on the event loop. */
async function until(check: () => boolean, what = 'condition') {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await tick();
  }
  throw new Error(`Timed out waiting for ${what}`);
}

interface Gate {
  open(): void;
  wait: Promise<void>;
}
const gate = (): Gate => {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { open, wait };
};

/**
 * An in-memory server: records starts, part PUTs (with how many run at once) and finishes.
 * `failPart` decides per (url, attempt) whether a PUT fails; `holdParts` parks PUTs until released.
 */
function fakeTransport(opts: { failPart?: (url: string, attempt: number) => boolean; holdParts?: boolean; holdStarts?: boolean } = {}) {
  const starts: UploadStartBody[] = [];
  const puts: Array<{ url: string; size: number }> = [];
  const finishes: string[] = [];
  const clears: Array<{ libraryId: string; mediaIds?: string[] }> = [];
  const attempts = new Map<string, number>();
  const signals: AbortSignal[] = [];
  let partsInFlight = 0;
  let maxPartsInFlight = 0;
  let filesInFlight = 0;
  let maxFilesInFlight = 0;
  const held: Gate[] = [];
  const heldStarts: Gate[] = [];
  const known = new Set<string>();
  let nextMedia = 1;
  const transport: UploadTransport = {
    fingerprint: async (f) => `fp-${f.name}-${f.size}`,
    async start(_d, body) {
      starts.push(body);
      if (opts.holdStarts) {
        const g = gate();
        heldStarts.push(g);
        await g.wait;
      }
      if (known.has(body.uniqueId)) throw Object.assign(new Error('Identical file already exists in this folder.'), { code: 'conflict' });
      known.add(body.uniqueId);
      filesInFlight++;
      maxFilesInFlight = Math.max(maxFilesInFlight, filesInFlight);
      const id = `m${nextMedia++}`;
      return {
        media: media(id),
        partUrls: Array.from({ length: body.parts }, (_, i) => `${id}/part/${i + 1}`),
        opaqueData: `opaque-${id}`,
      };
    },
    async putPart(url, chunk, onProgress, signal) {
      signals.push(signal);
      const attempt = (attempts.get(url) ?? 0) + 1;
      attempts.set(url, attempt);
      partsInFlight++;
      maxPartsInFlight = Math.max(maxPartsInFlight, partsInFlight);
      try {
        onProgress(chunk.size / 2);
        if (opts.holdParts) {
          const g = gate();
          held.push(g);
          let onAbort = () => undefined as void;
          const aborted = new Promise((_, reject) => (onAbort = () => reject(new Error('aborted'))));
          signal.addEventListener('abort', onAbort);
          await Promise.race([g.wait, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
        } else await tick();
        if (signal.aborted) throw new Error('aborted');
        if (opts.failPart?.(url, attempt)) throw new Error('503');
        puts.push({ url, size: chunk.size });
      } finally {
        partsInFlight--;
      }
    },
    async finish(_d, mediaId) {
      finishes.push(mediaId);
      filesInFlight--;
      return media(mediaId, 'queued');
    },
    async clear(libraryId, mediaIds) {
      clears.push({ libraryId, mediaIds });
    },
  };
  return {
    transport,
    starts,
    puts,
    finishes,
    clears,
    attempts,
    signals,
    held,
    heldStarts,
    known,
    max: () => ({ parts: maxPartsInFlight, files: maxFilesInFlight }),
  };
}

function makeQueue(t: ReturnType<typeof fakeTransport>, events = {}) {
  const state: UploadQueueState = { items: [], rejected: [], version: 0 };
  let n = 0;
  const queue = new UploadQueue(state, t.transport, events, {
    chunkSize: CHUNK,
    retryBaseMs: 0,
    newId: () => `u${++n}`,
  });
  return { state, queue };
}

describe('upload queue', () => {
  it('uploads every file in 20 MiB-style parts, the last part the remainder, then finishes it', async () => {
    const t = fakeTransport();
    const drained = vi.fn();
    const { state, queue } = makeQueue(t, { drained });
    await queue.add([file('a.mp4', 35)], dest);
    await until(() => drained.mock.calls.length > 0, 'drain');
    expect(t.starts[0]).toMatchObject({
      filename: 'a.mp4',
      size: 35,
      parts: 4,
      uniqueId: 'fp-a.mp4-35',
      deduplicationPolicy: { onConflict: 'error' },
    });
    expect(t.puts.map((p) => p.size).sort()).toEqual([10, 10, 10, 5]);
    expect(t.finishes).toEqual(['m1']);
    expect(drained).toHaveBeenCalledWith({ succeeded: 1, failed: 0 });
    // A finished item hands over to the media list.
    expect(state.items).toEqual([]);
  });

  it('runs at most 2 files and 8 parts per file at once', async () => {
    const t = fakeTransport({ holdParts: true });
    const { state, queue } = makeQueue(t);
    await queue.add([file('a.mp4', 200), file('b.mp4', 200), file('c.mp4', 200), file('d.mp4', 200)], dest);
    await until(() => t.held.length === 16, '16 parked parts');
    await tick();
    expect(t.starts).toHaveLength(2);
    expect(t.held).toHaveLength(16);
    expect(state.items.map((i) => i.status)).toEqual(['uploading', 'uploading', 'queued', 'queued']);
    // Releasing parts lets the rest through, never exceeding the limits.
    while (t.finishes.length < 4) {
      t.held.splice(0).forEach((g) => g.open());
      await tick();
    }
    expect(t.max()).toEqual({ parts: 16, files: 2 });
  });

  it('retries a failing part up to 3 attempts and succeeds on the third', async () => {
    const t = fakeTransport({ failPart: (url, attempt) => url.endsWith('/part/2') && attempt < 3 });
    const drained = vi.fn();
    const { queue } = makeQueue(t, { drained });
    await queue.add([file('a.mp4', 25)], dest);
    await until(() => drained.mock.calls.length > 0);
    expect(t.attempts.get('m1/part/2')).toBe(3);
    expect(drained).toHaveBeenCalledWith({ succeeded: 1, failed: 0 });
  });

  it("fails the file with 'Failed to upload chunk' after 3 failed attempts of a part", async () => {
    const t = fakeTransport({ failPart: (url) => url.endsWith('/part/1') });
    const failed = vi.fn();
    const drained = vi.fn();
    const { state, queue } = makeQueue(t, { failed, drained });
    await queue.add([file('bad.mp4', 15)], dest);
    await until(() => drained.mock.calls.length > 0);
    expect(t.attempts.get('m1/part/1')).toBe(3);
    expect(t.finishes).toEqual([]);
    expect(state.items[0]).toMatchObject({ status: 'error', error: MSG_MEDIA.chunkFailed });
    expect(failed).toHaveBeenCalledWith(expect.objectContaining({ filename: 'bad.mp4' }), MSG_MEDIA.chunkFailed);
    expect(drained).toHaveBeenCalledWith({ succeeded: 0, failed: 1 });
  });

  it('shows progress capped at 99% until the finish call answered', async () => {
    const t = fakeTransport({ holdParts: true });
    const { state, queue } = makeQueue(t);
    let finishGate!: Gate;
    const realFinish = t.transport.finish;
    t.transport.finish = async (...args) => {
      finishGate = gate();
      await finishGate.wait;
      return realFinish(...args);
    };
    await queue.add([file('a.mp4', 20)], dest);
    await until(() => t.held.length === 2);
    const item = state.items[0]!;
    expect(item.progress).toBe(0.5); // both parts reported half their bytes
    t.held.forEach((g) => g.open());
    await until(() => finishGate !== undefined, 'finish call');
    expect(item.progress).toBe(1);
    expect(shownProgress(item)).toBe(0.99);
    finishGate.open();
    await until(() => item.status === 'success');
    expect(shownProgress(item)).toBe(1);
  });

  it('clearing an upload aborts its parts, removes it and abandons its media on the server', async () => {
    const t = fakeTransport({ holdParts: true });
    const cleared = vi.fn();
    const { state, queue } = makeQueue(t, { cleared });
    await queue.add([file('a.mp4', 30), file('b.mp4', 30)], dest);
    await until(() => t.held.length === 6);
    await queue.cancel('u1');
    expect(state.items.map((i) => i.filename)).toEqual(['b.mp4']);
    expect(t.signals.slice(0, 3).every((s) => s.aborted)).toBe(true);
    expect(t.clears).toEqual([{ libraryId: 'lib-1', mediaIds: ['m1'] }]);
    expect(cleared).toHaveBeenCalledWith(expect.objectContaining({ filename: 'a.mp4', status: 'cancelled' }), true);
    await tick();
    // The other file is unaffected; nothing finishes the cleared one.
    t.held.splice(0).forEach((g) => g.open());
    await until(() => t.finishes.length === 1);
    expect(t.finishes).toEqual(['m2']);
    expect(t.clears).toHaveLength(1);
  });

  it('clearing during the start call abandons the media the start created', async () => {
    const t = fakeTransport({ holdStarts: true });
    const { state, queue } = makeQueue(t);
    await queue.add([file('a.mp4', 10)], dest);
    await until(() => t.heldStarts.length === 1);
    expect(state.items[0]!.status).toBe('queued');
    await queue.cancel('u1');
    expect(t.clears).toEqual([]);
    t.heldStarts[0]!.open();
    await until(() => t.clears.length === 1);
    expect(t.clears[0]).toEqual({ libraryId: 'lib-1', mediaIds: ['m1'] });
    expect(t.puts).toEqual([]);
  });

  it('clear all stops every upload of the library and clears them on the server in one call', async () => {
    const t = fakeTransport({ holdParts: true });
    const cleared = vi.fn();
    const { state, queue } = makeQueue(t, { cleared });
    await queue.add([file('a.mp4', 10), file('b.mp4', 10), file('c.mp4', 10)], dest);
    await until(() => t.held.length === 2);
    await queue.clearAll('lib-1');
    expect(state.items).toEqual([]);
    expect(t.clears).toContainEqual({ libraryId: 'lib-1', mediaIds: undefined });
    expect(cleared).toHaveBeenCalledWith('all', true);
    await tick();
    expect(t.starts).toHaveLength(2);
  });

  it('skips duplicates: known in the folder, repeated in the batch, or refused by the server', async () => {
    const t = fakeTransport();
    const duplicates = vi.fn();
    const queued = vi.fn();
    const drained = vi.fn();
    const { queue } = makeQueue(t, { duplicates, queued, drained });
    t.known.add('fp-server.mp4-10');
    const result = await queue.add([file('a.mp4', 10), file('a.mp4', 10), file('known.mp4', 10), file('server.mp4', 10)], dest, [
      'fp-known.mp4-10',
    ]);
    expect(result).toEqual({ queued: 2, duplicates: 2 });
    expect(duplicates).toHaveBeenCalledWith(2);
    expect(queued).toHaveBeenCalledWith({ id: 1, count: 2 });
    await until(() => drained.mock.calls.length > 0);
    // The server's 409 counts as one more duplicate, not as a failure.
    expect(duplicates).toHaveBeenLastCalledWith(1);
    expect(drained).toHaveBeenCalledWith({ succeeded: 1, failed: 0 });
  });

  it('re-sends the parts a finish reports missing, then finishes again', async () => {
    const t = fakeTransport();
    let first = true;
    const realFinish = t.transport.finish;
    t.transport.finish = async (...args) => {
      if (first) {
        first = false;
        throw Object.assign(new Error('The upload is missing parts 1, 3.'), { code: 'bad_request' });
      }
      return realFinish(...args);
    };
    const drained = vi.fn();
    const { queue } = makeQueue(t, { drained });
    await queue.add([file('a.mp4', 30)], dest);
    await until(() => drained.mock.calls.length > 0);
    expect(t.puts.map((p) => p.url).sort()).toEqual(['m1/part/1', 'm1/part/1', 'm1/part/2', 'm1/part/3', 'm1/part/3']);
    expect(drained).toHaveBeenCalledWith({ succeeded: 1, failed: 0 });
  });

  it('retrying a failed upload clears its old media and starts afresh', async () => {
    let failing = true;
    const t = fakeTransport({ failPart: () => failing });
    const drained = vi.fn();
    const { state, queue } = makeQueue(t, { drained });
    await queue.add([file('a.mp4', 10)], dest);
    await until(() => drained.mock.calls.length === 1);
    expect(state.items[0]!.status).toBe('error');
    failing = false;
    t.known.clear();
    await queue.retry('u1');
    await until(() => drained.mock.calls.length === 2);
    expect(t.clears).toEqual([{ libraryId: 'lib-1', mediaIds: ['m1'] }]);
    expect(drained).toHaveBeenLastCalledWith({ succeeded: 1, failed: 0 });
  });

  it('settles each batch once, when its last file is done, with what became of every file', async () => {
    const t = fakeTransport({ holdParts: true, failPart: (url) => url.startsWith('m2/') });
    const queued = vi.fn();
    const settled = vi.fn();
    const progress: Array<[number, number]> = [];
    const { state, queue } = makeQueue(t, {
      queued,
      batchSettled: settled,
      batchProgress: (id: number, f: number) => progress.push([id, f]),
    });
    await queue.add([file('a.mp4', 10), file('bad.mp4', 10), file('c.mp4', 10)], dest);
    expect(queued.mock.calls).toEqual([[{ id: 1, count: 3 }]]);
    await until(() => t.held.length === 2, 'two files sending');
    // Half of the single parts of a and bad.mp4 (two files at once) are sent: a third of the batch.
    expect(progress.at(-1)).toEqual([1, (5 + 5) / 30]);
    // The batch settles only when its last file is done, and only once.
    t.held.shift()!.open();
    await until(() => state.items[0]!.status === 'success', 'a done');
    expect(settled).not.toHaveBeenCalled();
    while (settled.mock.calls.length === 0) {
      t.held.splice(0).forEach((g) => g.open());
      await tick();
    }
    expect(settled.mock.calls).toEqual([
      [{ id: 1, succeeded: 2, failed: [{ filename: 'bad.mp4', message: MSG_MEDIA.chunkFailed }], cancelled: 0, duplicates: 0 }],
    ]);
    // Progress never said done before the batch was.
    expect(Math.max(...progress.map(([, f]) => f))).toBeLessThan(1);

    // A file cleared while it is sent settles its batch as cleared.
    await queue.add([file('later.mp4', 20)], dest);
    expect(queued).toHaveBeenLastCalledWith({ id: 2, count: 1 });
    await until(() => t.held.length > 0, 'the second batch sending');
    await queue.cancel(state.items.find((i) => i.filename === 'later.mp4')!.uuid);
    expect(settled).toHaveBeenLastCalledWith({ id: 2, succeeded: 0, failed: [], cancelled: 1, duplicates: 0 });
    expect(settled).toHaveBeenCalledTimes(2);
  });

  it('a retry is a batch of its own', async () => {
    let failing = true;
    const t = fakeTransport({ failPart: () => failing });
    const queued = vi.fn();
    const settled = vi.fn();
    const { queue } = makeQueue(t, { queued, batchSettled: settled });
    await queue.add([file('a.mp4', 10)], dest);
    await until(() => settled.mock.calls.length === 1);
    expect(settled).toHaveBeenLastCalledWith(
      expect.objectContaining({ id: 1, succeeded: 0, failed: [expect.objectContaining({ filename: 'a.mp4' })] }),
    );
    failing = false;
    t.known.clear();
    await queue.retry('u1');
    expect(queued).toHaveBeenLastCalledWith({ id: 2, count: 1 });
    await until(() => settled.mock.calls.length === 2);
    expect(settled).toHaveBeenLastCalledWith({ id: 2, succeeded: 1, failed: [], cancelled: 0, duplicates: 0 });
  });

  it('ends the batches of a session that ended as cleared', async () => {
    const t = fakeTransport({ holdParts: true });
    const settled = vi.fn();
    const { queue } = makeQueue(t, { batchSettled: settled });
    await queue.add([file('a.mp4', 10), file('b.mp4', 10), file('c.mp4', 10)], dest);
    await until(() => t.held.length === 2);
    queue.abortAll();
    expect(settled).toHaveBeenCalledWith({ id: 1, succeeded: 0, failed: [], cancelled: 3, duplicates: 0 });
    expect(settled).toHaveBeenCalledTimes(1);
  });

  it('parses the missing part numbers of a finish answer', () => {
    expect(missingPartsOf('The upload is missing part 4.')).toEqual([4]);
    expect(missingPartsOf('The upload is missing parts 1, 2, 10.')).toEqual([1, 2, 10]);
    expect(missingPartsOf('Wrong part size')).toEqual([]);
  });
});
