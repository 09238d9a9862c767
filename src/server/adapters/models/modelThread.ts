import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { spawnTsWorker } from '../tsWorker';
import { ModelRunError } from './types';

/** Main thread -> model thread. */
type Request = { type: 'call'; id: number; payload: unknown } | { type: 'close' };

/** Model thread -> main thread. */
type Reply =
  | { type: 'ready'; info: unknown }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'failed'; id: number; message: string }
  | { type: 'closed' };

/**
 * Models on a worker thread of their own, called like a function: ONNX Runtime's Node binding runs
 * a session synchronously on the calling thread, so a model on the main thread holds the server's
 * event loop for each run. Calls are answered in the order made (the worker serves one at a time).
 * The worker module calls `serveModelThread`.
 */
export class ModelThread<Info = unknown> {
  private next = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private closed: Promise<void> | null = null;
  /** Why the thread is gone (it exited or failed): later calls are refused with it rather than left waiting. */
  private gone: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    /** The feature's name in errors, e.g. 'text (PP-OCR)'. */
    private readonly what: string,
    /** What the worker said when it was ready. */
    readonly info: Info,
  ) {
    worker.on('message', (m: Reply) => {
      if (m.type !== 'result' && m.type !== 'failed') return;
      const p = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.type === 'result') p?.resolve(m.value);
      else p?.reject(new ModelRunError(what, m.message));
    });
    worker.on('error', (err) => this.failAll((this.gone ??= new ModelRunError(what, err.message))));
    worker.on('exit', () => this.failAll((this.gone ??= new ModelRunError(what, 'its thread stopped'))));
  }

  /** Starts the worker module with `data`; fails with the worker's message if it cannot open its models. */
  static async open<Info>(moduleUrl: URL, data: unknown, what: string): Promise<ModelThread<Info>> {
    const worker = spawnTsWorker(moduleUrl, { workerData: data });
    const info = await new Promise<Info>((resolve, reject) => {
      worker.once('message', (m: Reply) => {
        worker.off('error', reject);
        if (m.type === 'ready') resolve(m.info as Info);
        else reject(new ModelRunError(what, m.type === 'failed' ? m.message : `unexpected ${m.type}`));
      });
      worker.once('error', reject);
    }).catch(async (err: unknown) => {
      await worker.terminate();
      throw err;
    });
    return new ModelThread<Info>(worker, what, info);
  }

  /** Runs the worker's function on `payload`; `transfer` lists buffers handed over rather than copied. */
  call<T>(payload: unknown, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.closed) return Promise.reject(new ModelRunError(this.what, 'closed'));
    if (this.gone) return Promise.reject(this.gone);
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ type: 'call', id, payload } satisfies Request, transfer);
    });
  }

  /** Lets queued calls finish, releases the models and ends the thread. */
  close(): Promise<void> {
    if (this.gone) return (this.closed ??= Promise.resolve());
    this.closed ??= new Promise<void>((resolve) => {
      this.worker.on('message', (m: Reply) => {
        if (m.type === 'closed') void this.worker.terminate().then(() => resolve());
      });
      this.worker.once('exit', () => resolve());
      this.worker.postMessage({ type: 'close' } satisfies Request);
    });
    return this.closed;
  }

  private failAll(err: Error) {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/**
 * The worker side of a ModelThread: opens the models (from `workerData`), then runs calls one at a
 * time, in order, until asked to close.
 */
export async function serveModelThread<Data, Payload>(
  open: (data: Data) => Promise<{ info?: unknown; run(payload: Payload): Promise<unknown>; close(): Promise<void> }>,
) {
  const port = parentPort!;
  const post = (m: Reply) => port.postMessage(m);
  try {
    const models = await open(workerData as Data);
    let queue: Promise<void> = Promise.resolve();
    port.on('message', (m: Request) => {
      queue = queue.then(async () => {
        if (m.type === 'close') {
          await models.close();
          post({ type: 'closed' });
          return;
        }
        try {
          post({ type: 'result', id: m.id, value: await models.run(m.payload as Payload) });
        } catch (err) {
          post({ type: 'failed', id: m.id, message: (err as Error).message });
        }
      });
    });
    post({ type: 'ready', info: models.info });
  } catch (err) {
    post({ type: 'failed', id: -1, message: (err as Error).message });
  }
}
