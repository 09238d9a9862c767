import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from '../tsWorker';
import type { RgbImage } from './image';
import { ocrModelDir, type OcrOptions, type OcrWord } from './ocr';
import { ModelRunError } from './types';

/** Main thread -> OCR thread. */
export type OcrRequest = { type: 'read'; id: number; width: number; height: number; data: Uint8Array } | { type: 'close' };

/** OCR thread -> main thread. */
export type OcrReply =
  | { type: 'ready' }
  | { type: 'words'; id: number; words: OcrWord[] }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };

/**
 * The OCR reader on a worker thread, so text is read while the main thread runs the other picture
 * models (ONNX Runtime's Node binding runs a session synchronously on the calling thread) and the
 * server's event loop is not held for a detection. Frames are read in the order given.
 */
export class OcrThread {
  private next = 0;
  private readonly pending = new Map<number, { resolve(w: OcrWord[]): void; reject(e: Error): void }>();
  private closed: Promise<void> | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: OcrReply) => {
      if (m.type !== 'words' && m.type !== 'failed') return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'words') p?.resolve(m.words);
      else p?.reject(new ModelRunError('text (PP-OCR)', m.message));
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => this.failAll(new ModelRunError('text (PP-OCR)', 'the OCR thread stopped')));
  }

  /** Starts the thread; a missing model package or file throws ModelMissingError here, on the calling thread. */
  static async open(opts: OcrOptions = {}): Promise<OcrThread> {
    ocrModelDir();
    const worker = spawnTsWorker(new URL('./ocr.worker.ts', import.meta.url), { workerData: opts });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: OcrReply) => {
        worker.off('error', reject);
        if (m.type === 'ready') resolve();
        else reject(new ModelRunError('text (PP-OCR)', m.type === 'failed' ? m.message : `unexpected ${m.type}`));
      };
      worker.once('message', onMessage);
      worker.once('error', reject);
    }).catch(async (err: unknown) => {
      await worker.terminate();
      throw err;
    });
    return new OcrThread(worker);
  }

  /** Words on the image (see OcrReader.read); the pixels are copied to the thread. */
  read(img: RgbImage): Promise<OcrWord[]> {
    if (this.closed) return Promise.reject(new ModelRunError('text (PP-OCR)', 'closed'));
    const id = this.next++;
    const data = new Uint8Array(img.data); // a copy of its own, transferred rather than copied again
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'read', id, width: img.width, height: img.height, data } satisfies OcrRequest, [data.buffer]);
    });
  }

  /** Lets queued reads finish, releases the sessions and ends the thread. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      this.worker.on('message', (m: OcrReply) => {
        if (m.type === 'closed') void this.worker.terminate().then(() => resolve());
      });
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' } satisfies OcrRequest);
    });
    return this.closed;
  }

  private failAll(err: Error) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
