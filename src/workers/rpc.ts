/**
 * The one typed RPC helper every browser worker uses (house style 5). A protocol maps each message
 * type to its params and result; the caller side gets a promise per call, the worker side registers
 * one handler per type. Failures cross the boundary as an error envelope, never as a thrown string.
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

/** Anything messages can be posted to and heard from: a Worker, a worker's global scope, a MessagePort. */
export interface RpcEndpoint {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** MessagePorts only deliver after start() when listened to with addEventListener. */
  start?: () => void;
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
  /** Rejects every pending call (e.g. when the worker is terminated). */
  failAll(error: Error): void;
  pending(): number;
  dispose(): void;
}

const isEnvelope = (data: unknown): data is RpcEnvelope =>
  typeof data === 'object' && data !== null && 'rpc' in data && typeof (data as { id?: unknown }).id === 'number';

export function createRpcClient<P extends RpcProtocol>(endpoint: RpcEndpoint): RpcClient<P> {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (!isEnvelope(data) || data.rpc !== 'result') return;
    const entry = waiting.get(data.id);
    if (!entry) return;
    waiting.delete(data.id);
    if (data.ok) entry.resolve(data.result);
    else entry.reject(new WorkerRpcError(data.error.message, data.error.code, data.error.name));
  };
  endpoint.addEventListener('message', onMessage);
  endpoint.start?.();

  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };

  return {
    call(type, params, transfer = []) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        const envelope: RpcEnvelope = { rpc: 'call', id, message: { ...params, type } };
        try {
          endpoint.postMessage(envelope, transfer);
        } catch (e) {
          waiting.delete(id);
          reject(e instanceof Error ? e : new WorkerRpcError(String(e)));
        }
      });
    },
    failAll,
    pending: () => waiting.size,
    dispose() {
      endpoint.removeEventListener('message', onMessage);
      failAll(new WorkerRpcError('The worker was stopped.', 'worker_stopped'));
    },
  };
}

export type RpcHandlers<P extends RpcProtocol> = {
  [K in keyof P & string]: (
    params: RpcMessage<P> & { type: K },
  ) => P[K]['result'] | Transfer<P[K]['result']> | Promise<P[K]['result'] | Transfer<P[K]['result']>>;
};

function toErrorBody(error: unknown): RpcErrorBody {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(error) };
}

/** Answers calls arriving on `endpoint` with `handlers`; returns the teardown. */
export function serveRpc<P extends RpcProtocol>(endpoint: RpcEndpoint, handlers: RpcHandlers<P>): () => void {
  const onMessage = (event: MessageEvent) => {
    const data: unknown = event.data;
    if (!isEnvelope(data) || data.rpc !== 'call') return;
    const { id, message } = data;
    const handler = (handlers as Record<string, ((m: unknown) => unknown) | undefined>)[message.type];
    const answer = (reply: RpcEnvelope, transfer: Transferable[] = []) => endpoint.postMessage(reply, transfer);
    if (!handler) {
      answer({
        rpc: 'result',
        id,
        ok: false,
        error: { name: 'Error', message: `Unknown message type: ${message.type}`, code: 'unknown_type' },
      });
      return;
    }
    void (async () => {
      try {
        const result = await handler(message);
        if (result instanceof Transfer) answer({ rpc: 'result', id, ok: true, result: result.value }, result.transfer);
        else answer({ rpc: 'result', id, ok: true, result });
      } catch (error) {
        // Covers a throwing handler and a result that cannot be cloned: the caller always hears back.
        answer({ rpc: 'result', id, ok: false, error: toErrorBody(error) });
      }
    })();
  };
  endpoint.addEventListener('message', onMessage);
  endpoint.start?.();
  return () => endpoint.removeEventListener('message', onMessage);
}
