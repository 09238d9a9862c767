/**
 * The one typed RPC every worker uses: the browser's web workers and the server's model threads
 * (house style 5). A protocol maps each method to its params and result; the caller side gets a
 * promise per call, the worker side registers one handler per method. Failures cross the boundary
 * as an error envelope, never as a thrown string. Nothing here touches a DOM or Node API: it talks
 * through an RpcPort, which `domPort` (Worker, worker scope, MessagePort) and the server's
 * `threadPort` (node:worker_threads, server/adapters/threadPort.ts) adapt.
 */

/** A worker protocol: message type -> params sent and result answered. */
export type RpcProtocol = Record<string, { params: object; result: unknown }>;

/** The discriminated union of request messages of a protocol (`{ type, ...params }`). */
export type RpcMessage<P extends RpcProtocol> = { [K in keyof P & string]: { type: K } & P[K]['params'] }[keyof P & string];

export interface RpcErrorBody {
  name: string;
  message: string;
  code?: string;
}

/** What travels on the wire: a call with an id, and its answer with a result or an error envelope. */
export type RpcEnvelope =
  | { rpc: 'call'; id: number; message: { type: string } }
  | { rpc: 'result'; id: number; ok: true; result: unknown }
  | { rpc: 'result'; id: number; ok: false; error: RpcErrorBody };

/** A failure raised in the worker (or by the worker dying), rebuilt on the calling side. */
export class WorkerRpcError extends Error {
  override readonly name = 'WorkerRpcError';
  constructor(
    message: string,
    readonly code = 'worker_error',
    readonly remoteName?: string,
  ) {
    super(message);
  }
}

/** One end of a message channel, as the RPC uses it. */
export interface RpcPort {
  /** Posts a message; `transfer` lists buffers moved rather than copied. */
  post(message: unknown, transfer: Transferable[]): void;
  /** Hands each message's data to `onData` from now on; returns the unsubscribe. */
  listen(onData: (data: unknown) => void): () => void;
}

/** What `domPort` adapts: a Worker, a worker's global scope, a MessagePort. */
export interface RpcEndpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** MessagePorts only deliver after start() when listened to with addEventListener. */
  start?: () => void;
}

/** The RpcPort of a DOM message target (a Worker, `self` in a worker, a MessagePort). */
export function domPort(endpoint: RpcEndpoint): RpcPort {
  return {
    post: (message, transfer) => endpoint.postMessage(message, transfer),
    listen(onData) {
      const onMessage = (event: MessageEvent) => onData(event.data);
      endpoint.addEventListener('message', onMessage);
      endpoint.start?.();
      return () => endpoint.removeEventListener('message', onMessage);
    },
  };
}

/** Marks a result whose buffers are transferred to the caller instead of copied. */
export class Transfer<T> {
  constructor(
    readonly value: T,
    readonly transfer: Transferable[],
  ) {}
}
export const withTransfer = <T>(value: T, transfer: Transferable[]) => new Transfer(value, transfer);

export interface RpcClient<P extends RpcProtocol> {
  call<K extends keyof P & string>(type: K, params: P[K]['params'], transfer?: Transferable[]): Promise<P[K]['result']>;
  /** Rejects every pending call (e.g. when the worker reported an error); later calls are still posted. */
  failAll(error: Error): void;
  pending(): number;
  /**
   * Stops listening and rejects every pending call and every later one with `error` (default: the
   * worker was stopped), e.g. once the worker is terminated or has exited. The first reason stays.
   */
  dispose(error?: Error): void;
}

const isEnvelope = (data: unknown): data is RpcEnvelope =>
  typeof data === 'object' && data !== null && 'rpc' in data && typeof (data as { id?: unknown }).id === 'number';

export function createRpcClient<P extends RpcProtocol>(port: RpcPort): RpcClient<P> {
  let nextId = 1;
  let stopped: Error | null = null;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const unlisten = port.listen((data) => {
    if (!isEnvelope(data) || data.rpc !== 'result') return;
    const entry = waiting.get(data.id);
    if (!entry) return;
    waiting.delete(data.id);
    if (data.ok) entry.resolve(data.result);
    else entry.reject(new WorkerRpcError(data.error.message, data.error.code, data.error.name));
  });

  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };

  return {
    call(type, params, transfer = []) {
      if (stopped) return Promise.reject(stopped);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        const envelope: RpcEnvelope = { rpc: 'call', id, message: { ...params, type } };
        try {
          port.post(envelope, transfer);
        } catch (e) {
          waiting.delete(id);
          reject(e instanceof Error ? e : new WorkerRpcError(String(e)));
        }
      });
    },
    failAll,
    pending: () => waiting.size,
    dispose(error = new WorkerRpcError('The worker was stopped.', 'worker_stopped')) {
      if (stopped) return;
      stopped = error;
      unlisten();
      failAll(error);
    },
  };
}

export type RpcHandlers<P extends RpcProtocol> = {
  [K in keyof P & string]: (
    params: RpcMessage<P> & { type: K },
  ) => P[K]['result'] | Transfer<P[K]['result']> | Promise<P[K]['result'] | Transfer<P[K]['result']>>;
};

export interface ServeOptions {
  /** Runs one call at a time, in the order they arrived (a model session serves one run at a time). */
  oneAtATime?: boolean;
}

function toErrorBody(error: unknown): RpcErrorBody {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

/** Answers calls arriving on `port` with `handlers`; returns the teardown. */
export function serveRpc<P extends RpcProtocol>(port: RpcPort, handlers: RpcHandlers<P>, options: ServeOptions = {}): () => void {
  let queue: Promise<void> = Promise.resolve();
  return port.listen((data) => {
    if (!isEnvelope(data) || data.rpc !== 'call') return;
    const { id, message } = data;
    const handler = (handlers as Record<string, ((m: unknown) => unknown) | undefined>)[message.type];
    const answer = (reply: RpcEnvelope, transfer: Transferable[] = []) => port.post(reply, transfer);
    if (!handler) {
      answer({
        rpc: 'result',
        id,
        ok: false,
        error: { name: 'Error', message: `Unknown message type: ${message.type}`, code: 'unknown_type' },
      });
      return;
    }
    const run = async () => {
      try {
        const result = await handler(message);
        if (result instanceof Transfer) answer({ rpc: 'result', id, ok: true, result: result.value }, result.transfer);
        else answer({ rpc: 'result', id, ok: true, result });
      } catch (error) {
        // Covers a throwing handler and a result that cannot be cloned: the caller always hears back.
        answer({ rpc: 'result', id, ok: false, error: toErrorBody(error) });
      }
    };
    if (options.oneAtATime) queue = queue.then(run);
    else void run();
  });
}
