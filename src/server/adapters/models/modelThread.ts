import { parentPort, workerData, type Worker } from 'node:worker_threads';
import { createRpcClient, serveRpc, WorkerRpcError, type RpcClient } from '../../../workers/rpc';
import { threadPort } from '../threadPort';
import { spawnTsWorker } from '../tsWorker';
import { ModelRunError } from './types';

type NoParams = Record<string, never>;

/** The calls of a model thread (workers/rpc.ts carries them), answered one at a time, in order. */
type ModelThreadProtocol<Info, Payload, Result> = {
  /** Answered once the models are open, with what the worker says of them; fails with why they could not open. */
  ready: { params: NoParams; result: Info };
  /** The worker's function on one payload. */
  run: { params: { payload: Payload }; result: Result };
  /** Answered after the calls before it, once the models are released. */
  close: { params: NoParams; result: null };
};

/**
 * Models on a worker thread of their own, called like a function: ONNX Runtime's Node binding runs
 * a session synchronously on the calling thread, so a model on the main thread holds the server's
 * event loop for each run. Calls are answered in the order made (the worker serves one at a time).
 * The worker module calls `serveModelThread`.
 */
export class ModelThread<Info = undefined, Payload = unknown, Result = unknown> {
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly rpc: RpcClient<ModelThreadProtocol<Info, Payload, Result>>,
    /** The feature's name in errors, e.g. 'text (PP-OCR)'. */
    private readonly what: string,
    /** What the worker said when it was ready. */
    readonly info: Info,
  ) {}

  /** Starts the worker module with `data`; fails with the worker's message if it cannot open its models. */
  static async open<Info = undefined, Payload = unknown, Result = unknown>(
    moduleUrl: URL,
    data: unknown,
    what: string,
  ): Promise<ModelThread<Info, Payload, Result>> {
    const worker = spawnTsWorker(moduleUrl, { workerData: data });
    const rpc = createRpcClient<ModelThreadProtocol<Info, Payload, Result>>(threadPort(worker));
    // Once the thread is gone (it exited or failed), pending and later calls are refused with why
    // rather than left waiting.
    worker.on('error', (err) => rpc.dispose(new ModelRunError(what, err.message)));
    worker.on('exit', () => rpc.dispose(new ModelRunError(what, 'its thread stopped')));
    try {
      let loadFailed = (_err: Error) => {};
      const info = await new Promise<Info>((resolve, reject) => {
        loadFailed = reject;
        worker.once('error', loadFailed); // a module that fails to load: its own error
        rpc.call('ready', {}).then(resolve, (err: Error) => reject(asModelError(what, err)));
      }).finally(() => worker.off('error', loadFailed));
      return new ModelThread(worker, rpc, what, info);
    } catch (err) {
      await worker.terminate();
      throw err;
    }
  }

  /** Runs the worker's function on `payload`; `transfer` lists buffers handed over rather than copied. */
  call(payload: Payload, transfer: ArrayBuffer[] = []): Promise<Result> {
    if (this.closed) return Promise.reject(new ModelRunError(this.what, 'closed'));
    return this.rpc.call('run', { payload }, transfer).catch((err: Error) => Promise.reject(asModelError(this.what, err)));
  }

  /** Lets queued calls finish, releases the models and ends the thread (at once if it is gone already). */
  close(): Promise<void> {
    return (this.closed ??= this.rpc
      .call('close', {})
      .catch(() => undefined)
      .then(() => this.worker.terminate())
      .then(() => undefined));
  }
}

/** A failure in the thread as a ModelRunError naming the feature (one raised here stays as it is). */
function asModelError(what: string, err: Error): Error {
  return err instanceof WorkerRpcError ? new ModelRunError(what, err.message) : err;
}

/**
 * The worker side of a ModelThread: opens the models (from `workerData`), then runs calls one at a
 * time, in order, until asked to close.
 */
export async function serveModelThread<Data, Payload, Result = unknown, Info = undefined>(
  open: (data: Data) => Promise<{ info?: Info; run(payload: Payload): Promise<Result>; close(): Promise<void> }>,
): Promise<void> {
  const opening = open(workerData as Data);
  serveRpc<ModelThreadProtocol<Info, Payload, Result>>(
    threadPort(parentPort!),
    {
      // A failure to open is told in answer to `ready`, which the opener always asks first.
      ready: async () => (await opening).info as Info,
      run: async ({ payload }) => (await opening).run(payload),
      close: async () => {
        await (await opening).close();
        return null;
      },
    },
    { oneAtATime: true },
  );
  await opening.catch(() => undefined);
}
