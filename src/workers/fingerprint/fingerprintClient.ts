import { createRpcClient, domPort, WorkerRpcError, type RpcClient } from '../rpc';
import type { FingerprintProtocol } from './fingerprint.protocol';
import { fingerprintOf } from './fingerprintSample';

/** The worker is stopped after this long without calls; the next call starts a new one. */
const IDLE_MS = 30_000;

let worker: Worker | null = null;
let rpc: RpcClient<FingerprintProtocol> | null = null;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

/** The one teardown of the fingerprint worker: rejects pending calls and terminates it. */
export function stopFingerprintWorker() {
  clearTimeout(idleTimer);
  rpc?.dispose();
  worker?.terminate();
  rpc = null;
  worker = null;
}

function client(): RpcClient<FingerprintProtocol> {
  if (rpc) return rpc;
  const w = new Worker(new URL('./fingerprint.worker.ts', import.meta.url), { type: 'module', name: 'fingerprint' });
  const c = createRpcClient<FingerprintProtocol>(domPort(w));
  // A worker that fails to load or crashes would otherwise leave its callers waiting forever.
  w.addEventListener('error', (event) => {
    c.failAll(new WorkerRpcError(event.message || 'The fingerprint worker failed.'));
    stopFingerprintWorker();
  });
  worker = w;
  rpc = c;
  return c;
}

/** The upload fingerprint of a file, computed in a Web Worker (inline where workers are unavailable). */
export async function fingerprintFile(file: Blob): Promise<string> {
  if (typeof Worker === 'undefined') return fingerprintOf(file);
  clearTimeout(idleTimer);
  const c = client();
  try {
    return (await c.call('fingerprint', { file })).uniqueId;
  } finally {
    if (rpc === c && c.pending() === 0) idleTimer = setTimeout(stopFingerprintWorker, IDLE_MS);
  }
}
