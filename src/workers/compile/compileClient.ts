import coreURL from '@ffmpeg/core?url';
import wasmURL from '@ffmpeg/core/wasm?url';
import { createRpcClient, domPort, WorkerRpcError, type RpcClient } from '../rpc';
import type { CompileClip, CompilePart, CompileProtocol } from './compile.protocol';

// This module is imported only by the merge dialog's chunk: the core's script and its 32 MB .wasm are
// the app's own assets (Vite URLs), fetched on the first build, never from a CDN.

/**
 * Two workers, each with its own single-thread core: the re-encoding of clip heads and tails is the
 * cost, and it splits by part, so two cores build a preview in about half the time.
 */
const WORKERS = 2;

let compiled: Promise<WebAssembly.Module> | null = null;

/**
 * The core's .wasm, fetched and compiled once per page and handed to every worker: each compiling
 * its own copy cost a second download and a second optimising compile competing for the same two
 * cores (tests/bench/merge.bench.ts).
 */
function compiledCore(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const res = await fetch(new URL(wasmURL, location.href).href);
    if (!res.ok) throw new WorkerRpcError(`Could not load the preview encoder (${res.status}).`);
    // Compiled while it downloads when the server names its type (streaming compilation requires it).
    if (res.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(res);
    return WebAssembly.compile(await res.arrayBuffer());
  })();
  compiled.catch(() => (compiled = null));
  return compiled;
}

const pool: { worker: Worker; rpc: RpcClient<CompileProtocol> }[] = [];

/** The one teardown of the preview workers: rejects pending builds and terminates them (and their wasm memory); the compiled core goes too. */
export function stopCompileWorkers() {
  compiled = null;
  for (const { worker, rpc } of pool.splice(0)) {
    rpc.dispose();
    worker.terminate();
  }
}

function client(i: number): RpcClient<CompileProtocol> {
  const existing = pool[i];
  if (existing) return existing.rpc;
  const worker = new Worker(new URL('./compile.worker.ts', import.meta.url), { type: 'module', name: `compile-preview-${i}` });
  const rpc = createRpcClient<CompileProtocol>(domPort(worker));
  worker.addEventListener('error', (event) => {
    rpc.failAll(new WorkerRpcError(event.message || 'The preview worker failed.'));
    stopCompileWorkers();
  });
  pool[i] = { worker, rpc };
  return rpc;
}

/** Builds the compilation preview (an MP4 Blob) of `clips` in the browser, with ffmpeg.wasm in workers. */
export async function buildCompilationPreview(clips: CompileClip[]) {
  const t0 = performance.now();
  const core = { coreURL: new URL(coreURL, location.href).href, wasm: await compiledCore() };
  const compileMs = performance.now() - t0;
  const n = Math.max(1, Math.min(WORKERS, clips.length));
  // Each worker cuts its share of the parts, balanced by what they cost (compilePlan's shareParts);
  // they are put back in the compilation's order here.
  const cuts = await Promise.all(
    Array.from({ length: n }, (_, i) => client(i).call('cut', { clips, share: { index: i, of: n }, ...core })),
  );
  const parts: CompilePart[] = cuts
    .flatMap((c) => c.parts)
    .sort((a, b) => a.clip - b.clip || a.part - b.part)
    .map(({ ts, duration }) => ({ ts, duration }));
  const { mp4, joinMs } = await client(0).call(
    'join',
    { parts, ...core },
    parts.map((p) => p.ts),
  );
  const timings = {
    loadMs: compileMs + Math.max(...cuts.map((c) => c.timings.loadMs)),
    fetchMs: Math.max(...cuts.map((c) => c.timings.fetchMs)),
    encodeMs: Math.max(...cuts.map((c) => c.timings.encodeMs)),
    joinMs,
    encodedSeconds: cuts.reduce((s, c) => s + c.timings.encodedSeconds, 0),
  };
  return { blob: new Blob([mp4], { type: 'video/mp4' }), timings };
}
