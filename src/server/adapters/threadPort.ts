import type { TransferListItem } from 'node:worker_threads';
import type { RpcPort } from '../../workers/rpc';

/** What `threadPort` adapts: a node:worker_threads Worker, its `parentPort`, or a MessagePort. */
export interface ThreadEndpoint {
  postMessage(value: unknown, transferList?: readonly TransferListItem[]): void;
  on(event: 'message', listener: (value: unknown) => void): unknown;
  off(event: 'message', listener: (value: unknown) => void): unknown;
}

/** The RpcPort of a worker thread's end (workers/rpc.ts's DOM `domPort` is its browser twin). */
export function threadPort(endpoint: ThreadEndpoint): RpcPort {
  return {
    // The RPC transfers ArrayBuffers and MessagePorts, which both kinds of worker take.
    post: (message, transfer) => endpoint.postMessage(message, transfer as unknown as TransferListItem[]),
    listen(onData) {
      endpoint.on('message', onData);
      return () => endpoint.off('message', onData);
    },
  };
}
