import type { Worker } from 'node:worker_threads';
import { spawnTsWorker } from '../tsWorker';
import type { CorruptModelFile } from './fetchModels';
import { ModelRunError, type VisualAnalyzer, type VisualFeatures } from './types';

/** What the thread opens: createVisualAnalyzer's arguments, plus the thread's niceness. */
export interface VisualThreadOptions {
  modelsDir: string;
  threads?: number;
  skip?: string[];
  corrupt?: readonly CorruptModelFile[];
  /** Scheduling priority of the thread (Linux nice, 0..19; default 10): indexing yields the CPU to requests. */
  nice?: number;
}

/** Main thread -> visual thread. */
export type VisualRequest = { type: 'analyze'; id: number; images: Uint8Array[] } | { type: 'close' };

/** Visual thread -> main thread. */
export type VisualReply =
  | { type: 'ready'; capabilities: string[]; missing: string[] }
  | { type: 'features'; id: number; features: VisualFeatures[] }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };

/**
 * The picture models of ingest (YOLOX, MobileNet, colours, and the OCR thread they start) on a
 * worker thread of their own, at a lower scheduling priority. ONNX Runtime's Node binding runs a
 * session synchronously on the calling thread: on the main thread every keyframe held the server's
 * event loop for tens of milliseconds, so searches answered slowly while anything was indexing.
 * `embed` (a search's query image) is not served here: it would wait behind an ingest batch.
 */
export class VisualThread implements Pick<VisualAnalyzer, 'capabilities' | 'analyze' | 'close'> {
  private next = 0;
  private readonly pending = new Map<number, { resolve(f: VisualFeatures[]): void; reject(e: Error): void }>();
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly capabilities: string[],
    readonly missing: string[],
  ) {
    worker.on('message', (m: VisualReply) => {
      if (m.type !== 'features' && m.type !== 'failed') return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'features') p?.resolve(m.features);
      else p?.reject(new ModelRunError('visual models', m.message));
    });
    worker.on('error', (err) => this.failAll(err));
    worker.on('exit', () => this.failAll(new ModelRunError('visual models', 'the visual models thread stopped')));
  }

  static async open(opts: VisualThreadOptions): Promise<VisualThread> {
    const worker = spawnTsWorker(new URL('./visual.worker.ts', import.meta.url), { workerData: opts });
    const ready = await new Promise<Extract<VisualReply, { type: 'ready' }>>((resolve, reject) => {
      worker.once('message', (m: VisualReply) => {
        worker.off('error', reject);
        if (m.type === 'ready') resolve(m);
        else reject(new ModelRunError('visual models', m.type === 'failed' ? m.message : `unexpected ${m.type}`));
      });
      worker.once('error', reject);
    }).catch(async (err: unknown) => {
      await worker.terminate();
      throw err;
    });
    return new VisualThread(worker, ready.capabilities, ready.missing);
  }

  /** Features of each encoded image, in order (see VisualAnalyzer.analyze); the bytes are copied to the thread. */
  analyze(images: Buffer[]): Promise<VisualFeatures[]> {
    if (this.closed) return Promise.reject(new ModelRunError('visual models', 'closed'));
    const id = this.next++;
    const copies = images.map((b) => new Uint8Array(b)); // own buffers, transferred rather than copied again
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(
        { type: 'analyze', id, images: copies } satisfies VisualRequest,
        copies.map((c) => c.buffer),
      );
    });
  }

  /** Lets queued batches finish, releases the sessions and ends the thread. */
  close(): Promise<void> {
    this.closed ??= new Promise<void>((resolve) => {
      this.worker.on('message', (m: VisualReply) => {
        if (m.type === 'closed') void this.worker.terminate().then(() => resolve());
      });
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' } satisfies VisualRequest);
    });
    return this.closed;
  }

  private failAll(err: Error) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}
