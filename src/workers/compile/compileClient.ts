import coreURL from '@ffmpeg/core?url';
import wasmURL from '@ffmpeg/core/wasm?url';
import { createRpcClient, WorkerRpcError, type RpcClient, type RpcEndpoint } from '../rpc';
import type { CompileClip, CompileProtocol } from './compile.protocol';

// This module is imported only by the merge dialog's chunk: the core's script and its 32 MB .wasm are
// the app's own assets (Vite URLs), fetched on the first build, never from a CDN.

let worker: Worker | null = null;
let rpc: RpcClient<CompileProtocol> | null = null;

/** The one teardown of the preview worker: rejects pending builds and terminates it (and its wasm memory). */
export function stopCompileWorker() {
  rpc?.dispose();
  worker?.terminate();
  rpc = null;
  worker = null;
}

function client(): RpcClient<CompileProtocol> {
  if (rpc) return rpc;
  const w = new Worker(new URL('./compile.worker.ts', import.meta.url), { type: 'module', name: 'compile-preview' });
  const c = createRpcClient<CompileProtocol>(w as unknown as RpcEndpoint);
  w.addEventListener('error', (event) => {
    c.failAll(new WorkerRpcError(event.message || 'The preview worker failed.'));
    stopCompileWorker();
  });
  worker = w;
  rpc = c;
  return c;
}

/** Builds the compilation preview (an MP4 Blob) of `clips` in the browser, with ffmpeg.wasm in a worker. */
export async function buildCompilationPreview(clips: CompileClip[]) {
  const absolute = (u: string) => new URL(u, location.href).href;
  const { mp4, timings } = await client().call('build', { clips, coreURL: absolute(coreURL), wasmURL: absolute(wasmURL) });
  return { blob: new Blob([mp4], { type: 'video/mp4' }), timings };
}
