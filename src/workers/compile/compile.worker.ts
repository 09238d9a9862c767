/// <reference lib="webworker" />
import { domPort, serveRpc, withTransfer, type RpcEndpoint } from '../rpc';
import { encodedSeconds, parseMediaPlaylist, planClip, shareParts, type ClipPart } from './compilePlan';
import { effectiveFrameRate } from '../../engine/kernels/frames';
import { cropFilter } from '../../engine/kernels/cropWindow';
import type { CompileProtocol, CoreRef, CutPart } from './compile.protocol';

// The ffmpeg.wasm core (the Emscripten module @ffmpeg/ffmpeg wraps in its own worker), driven
// directly here so that fetching, planning and cutting all happen off the page in one worker.
interface FFmpegCore {
  FS: { writeFile(path: string, data: Uint8Array | string): void; readFile(path: string): Uint8Array; unlink(path: string): void };
  exec(...args: string[]): number;
  reset(): void;
  setLogger(fn: (log: { type: string; message: string }) => void): void;
}
type CreateCore = (options: {
  instantiateWasm: (imports: WebAssembly.Imports, ready: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
}) => Promise<FFmpegCore>;

let core: Promise<FFmpegCore> | null = null;
let lastLog: string[] = [];

function loadCore({ coreURL, wasm }: CoreRef): Promise<FFmpegCore> {
  core ??= (async () => {
    const mod = (await import(/* @vite-ignore */ coreURL)) as { default: CreateCore };
    // Emscripten's hook has no way to fail: a failed instantiation rejects the load through this.
    let failed: (error: unknown) => void = () => {};
    const instantiation = new Promise<never>((_, reject) => (failed = reject));
    const c = await Promise.race([
      mod.default({
        // The page's compiled module: no second download or compile per worker.
        instantiateWasm: (imports, ready) => {
          WebAssembly.instantiate(wasm, imports).then((instance) => ready(instance, wasm), failed);
          return {};
        },
      }),
      instantiation,
    ]);
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

const bufferOf = (data: Uint8Array) => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer;

serveRpc<CompileProtocol>(domPort(self as unknown as RpcEndpoint), {
  cut: async ({ clips, share, coreURL, wasm }) => {
    const t0 = performance.now();
    const c = await loadCore({ coreURL, wasm });
    const t1 = performance.now();
    const playlists = await fetchAll(clips.map((clip) => clip.playlistUrl));
    const plans: ClipPart[][] = clips.map((clip) =>
      planClip(
        parseMediaPlaylist(new TextDecoder().decode(playlists.get(clip.playlistUrl)!), clip.playlistUrl),
        clip.start,
        clip.end,
        Boolean(clip.crop && clip.output),
      ),
    );
    // Every worker plans all clips and cuts the parts that fall to it.
    const owners = shareParts(plans, share.of);
    const mine = plans.flatMap((plan, clip) =>
      plan.map((part, i) => ({ clip, i, part })).filter((p) => owners[clip]![p.i] === share.index),
    );
    const segments = await fetchAll(mine.map((p) => p.part.segment.url));
    const t2 = performance.now();
    const parts: CutPart[] = [];
    for (const { clip, i, part } of mine) {
      const { frameRate, crop, output } = clips[clip]!;
      const fps = effectiveFrameRate(frameRate);
      const bytes = segments.get(part.segment.url)!;
      if (part.kind === 'copy') {
        parts.push({ ts: bufferOf(bytes), duration: part.segment.duration, clip, part: i });
        continue;
      }
      c.FS.writeFile('in.ts', bytes);
      // Decoded from the segment's first (key)frame and cut on the output side, by whole frames: from
      // the frame at `from`, exactly `frames` of them. High profile and 4:2:0 like the rendition.
      const frames = Math.max(1, Math.round((part.to - part.from) * fps));
      // The render's shape (issue 39): the window along the clip's path, in segment time, scaled alike for every clip.
      const origin = part.segment.start;
      const shape = crop && output ? ['-vf', cropFilter(crop, origin, origin + part.from, origin + part.to, output)] : [];
      run(c, [
        ...['-i', 'in.ts', '-ss', Math.max(0, part.from - 0.5 / fps).toFixed(6), '-t', (frames / fps + 0.5 / fps).toFixed(6)],
        ...['-frames:v', String(frames), '-map', '0:v:0', '-map', '0:a:0?', ...shape],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '128k', '-f', 'mpegts', 'out.ts'],
      ]);
      parts.push({ ts: bufferOf(c.FS.readFile('out.ts')), duration: frames / fps, clip, part: i });
      c.FS.unlink('in.ts');
      c.FS.unlink('out.ts');
    }
    const timings = {
      loadMs: t1 - t0,
      fetchMs: t2 - t1,
      encodeMs: performance.now() - t2,
      encodedSeconds: encodedSeconds(mine.map((p) => p.part)),
    };
    return withTransfer(
      { parts, timings },
      parts.map((p) => p.ts),
    );
  },

  join: async ({ parts, coreURL, wasm }) => {
    const t0 = performance.now();
    const c = await loadCore({ coreURL, wasm });
    const names = parts.map((p, i) => {
      const name = `p${i}.ts`;
      c.FS.writeFile(name, new Uint8Array(p.ts));
      return name;
    });
    // Each part's length is given, so the next starts exactly there (a part's audio may run a little longer).
    c.FS.writeFile('list.txt', names.map((n, i) => `file '${n}'\nduration ${parts[i]!.duration.toFixed(6)}`).join('\n'));
    run(c, ['-f', 'concat', '-safe', '0', '-i', 'list.txt', '-c', 'copy', '-movflags', '+faststart', 'out.mp4']);
    const mp4 = bufferOf(c.FS.readFile('out.mp4'));
    for (const f of [...names, 'list.txt', 'out.mp4']) c.FS.unlink(f);
    return withTransfer({ mp4, joinMs: performance.now() - t0 }, [mp4]);
  },
});
