import coreURL from '@ffmpeg/core?url';
import wasmURL from '@ffmpeg/core/wasm?url';
import { createRpcClient, WorkerRpcError, type RpcClient, type RpcEndpoint } from '../rpc';
import type { CompileClip, CompilePart, CompileProtocol } from './compile.protocol';

// This module is imported only by the merge dialog's chunk: the core's script and its 32 MB .wasm are
// the app's own assets (Vite URLs), fetched on the first build, never from a CDN.

/**
 * Two workers, each with its own single-thread core: the re-encoding of clip heads and tails is the
 * cost, and it splits by clip, so two cores build a preview in about half the time.
 */
const WORKERS = 2;

const pool: { worker: Worker; rpc: RpcClient<CompileProtocol> }[] = [];

/** The one teardown of the preview workers: rejects pending builds and terminates them (and their wasm memory). */
export function stopCompileWorkers() {
  for (const { worker, rpc } of pool.splice(0)) {
    rpc.dispose();
    worker.terminate();
  }
}

function client(i: number): RpcClient<CompileProtocol> {
  const existing = pool[i];
  if (existing) return existing.rpc;
  const worker = new Worker(new URL('./compile.worker.ts', import.meta.url), { type: 'module', name: `compile-preview-${i}` });
  const rpc = createRpcClient<CompileProtocol>(worker as unknown as RpcEndpoint);
  worker.addEventListener('error', (event) => {
    rpc.failAll(new WorkerRpcError(event.message || 'The preview worker failed.'));
    stopCompileWorkers();
  });
  pool[i] = { worker, rpc };
  return rpc;
}

/** Builds the compilation preview (an MP4 Blob) of `clips` in the browser, with ffmpeg.wasm in workers. */
export async function buildCompilationPreview(clips: CompileClip[]) {
  const urls = { coreURL: new URL(coreURL, location.href).href, wasmURL: new URL(wasmURL, location.href).href };
  const n = Math.max(1, Math.min(WORKERS, clips.length));
  // Consecutive runs of clips per worker, so the parts come back in order.
  const groups = Array.from({ length: n }, (_, i) =>
    clips.slice(Math.round((i * clips.length) / n), Math.round(((i + 1) * clips.length) / n)),
  );
  const cuts = await Promise.all(groups.map((group, i) => client(i).call('cut', { clips: group, ...urls })));
  const parts: CompilePart[] = cuts.flatMap((c) => c.parts);
  const { mp4, joinMs } = await client(0).call(
    'join',
    { parts, ...urls },
    parts.map((p) => p.ts),
  );
  const timings = {
    loadMs: Math.max(...cuts.map((c) => c.timings.loadMs)),
    fetchMs: Math.max(...cuts.map((c) => c.timings.fetchMs)),
    encodeMs: Math.max(...cuts.map((c) => c.timings.encodeMs)),
    joinMs,
    encodedSeconds: cuts.reduce((s, c) => s + c.timings.encodedSeconds, 0),
  };
  return { blob: new Blob([mp4], { type: 'video/mp4' }), timings };
}
