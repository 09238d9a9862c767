/// <reference lib="webworker" />
import { serveRpc, withTransfer, type RpcEndpoint } from '../rpc';
import { encodedSeconds, parseMediaPlaylist, planClip, type ClipPart } from './compilePlan';
import type { CompileProtocol } from './compile.protocol';

// The ffmpeg.wasm core (the Emscripten module @ffmpeg/ffmpeg wraps in its own worker), driven
// directly here so that fetching, planning and cutting all happen off the page in one worker.
interface FFmpegCore {
  FS: { writeFile(path: string, data: Uint8Array | string): void; readFile(path: string): Uint8Array; unlink(path: string): void };
  exec(...args: string[]): number;
  reset(): void;
  setLogger(fn: (log: { type: string; message: string }) => void): void;
}
type CreateCore = (options: { mainScriptUrlOrBlob: string }) => Promise<FFmpegCore>;

let core: Promise<FFmpegCore> | null = null;
let lastLog: string[] = [];

function loadCore(coreURL: string, wasmURL: string): Promise<FFmpegCore> {
  core ??= (async () => {
    const mod = (await import(/* @vite-ignore */ coreURL)) as { default: CreateCore };
    // The core finds its .wasm through this fragment (its own convention); both URLs are the app's.
    const c = await mod.default({ mainScriptUrlOrBlob: `${coreURL}#${btoa(JSON.stringify({ wasmURL, workerURL: '' }))}` });
    c.setLogger(({ message }) => {
      lastLog.push(message);
      if (lastLog.length > 30) lastLog.shift();
    });
    return c;
  })();
  core.catch(() => (core = null));
  return core;
}

function run(c: FFmpegCore, args: string[]) {
  lastLog = [];
  const code = c.exec(...args);
  c.reset();
  if (code !== 0) throw new Error(`ffmpeg failed (${code}): ${lastLog.slice(-3).join(' | ')}`);
}

async function fetchBytes(url: string): Promise<Uint8Array> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`Could not read ${new URL(url).pathname} (${res.status})`);
  return new Uint8Array(await res.arrayBuffer());
}

// A few downloads at once: the segments are small and the wasm thread waits for all of them.
async function fetchAll(urls: string[], limit = 4): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  const queue = [...new Set(urls)];
  await Promise.all(
    Array.from({ length: Math.min(limit, queue.length) }, async () => {
      for (let url = queue.shift(); url; url = queue.shift()) out.set(url, await fetchBytes(url));
    }),
  );
  return out;
}

serveRpc<CompileProtocol>(self as unknown as RpcEndpoint, {
  build: async ({ clips, coreURL, wasmURL }) => {
    const t0 = performance.now();
    const c = await loadCore(coreURL, wasmURL);
    const t1 = performance.now();
    const playlists = await fetchAll(clips.map((clip) => clip.playlistUrl));
    const plans: ClipPart[][] = clips.map((clip) =>
      planClip(parseMediaPlaylist(new TextDecoder().decode(playlists.get(clip.playlistUrl)!), clip.playlistUrl), clip.start, clip.end),
    );
    const segments = await fetchAll(plans.flat().map((p) => p.segment.url));
    const t2 = performance.now();
    const names = new Map<string, string>();
    for (const [url, bytes] of segments) {
      const name = `s${names.size}.ts`;
      names.set(url, name);
      c.FS.writeFile(name, bytes);
    }
    const list: string[] = [];
    const written: string[] = [...names.values()];
    for (const part of plans.flat()) {
      const input = names.get(part.segment.url)!;
      if (part.kind === 'copy') {
        list.push(input);
        continue;
      }
      const out = `p${list.length}.ts`;
      // Decoded from the segment's first (key)frame, cut on the output side: frame-exact. High profile
      // and 4:2:0 like the rendition, so the stream-copied segments around it decode alike.
      run(c, [
        ...['-i', input, '-ss', part.from.toFixed(6), '-t', (part.to - part.from).toFixed(6)],
        ...['-map', '0:v:0', '-map', '0:a:0?', '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', out],
      ]);
      list.push(out);
      written.push(out);
    }
    const t3 = performance.now();
    c.FS.writeFile('list.txt', list.map((f) => `file '${f}'`).join('\n'));
    run(c, ['-f', 'concat', '-safe', '0', '-i', 'list.txt', '-c', 'copy', '-movflags', '+faststart', 'out.mp4']);
    const data = c.FS.readFile('out.mp4');
    for (const f of [...written, 'list.txt', 'out.mp4']) c.FS.unlink(f);
    const mp4 = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;
    const timings = {
      loadMs: t1 - t0,
      fetchMs: t2 - t1,
      encodeMs: t3 - t2,
      joinMs: performance.now() - t3,
      encodedSeconds: plans.reduce((s, p) => s + encodedSeconds(p), 0),
    };
    return withTransfer({ mp4, timings }, [mp4]);
  },
});
