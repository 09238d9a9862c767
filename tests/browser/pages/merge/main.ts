// The merge benchmark page: the merge dialog's two-player sequence playback and its local preview
// build (ffmpeg.wasm worker), on HLS renditions the benchmark serves, for tests/bench/merge.bench.ts.
import type { SequenceClip } from '../../../../src/engine/sequence/sequenceModel';
import { locate, preloadTime, sequenceDuration } from '../../../../src/engine/sequence/sequenceModel';
import { SequencePlayback, type SwitchRecord } from '../../../../src/engine/sequence/SequencePlayback';
import { attachPlayer } from '../../../../src/app/media/momentPlayer';
import type { RendererPreference } from '../../../../src/engine/render/pixiApp';
import { readOnePixel } from '../../../../src/engine/render/readback';
import { TestSequence, testClip } from '../../drivers/TestSequence';
import { buildCompilationPreview } from '../../../../src/workers/compile/compileClient';

export interface BenchClip {
  playlistUrl: string;
  start: number;
  end: number;
  frameRate: number;
}

const toClips = (clips: BenchClip[]): SequenceClip[] =>
  clips.map((c, i) => ({
    id: `c${i}`,
    extendedMediaId: { libraryId: 'bench', mediaId: c.playlistUrl },
    beginEndTimestamp: { startTime: c.start, endTime: c.end },
    duration: c.end - c.start,
    modifications: {},
    mediaDuration: 1e6,
    frameRate: c.frameRate,
    label: `clip ${i}`,
  }));

/** Plays the sequence from the start to its end as the merge dialog does (preload 2 s ahead) and returns every switch seen. */
async function playSequence(clips: BenchClip[]): Promise<{ switches: SwitchRecord[]; preloads: number; wallMs: number; trace: string[] }> {
  const seq = toClips(clips);
  const total = sequenceDuration(seq);
  let preloaded = -1;
  let preloads = 0;
  let last = 0;
  const done = new Promise<void>((resolve) => {
    const p = new SequencePlayback({
      videos: [document.getElementById('a') as HTMLVideoElement, document.getElementById('b') as HTMLVideoElement],
      urlOf: (c) => c.extendedMediaId.mediaId,
      attach: (video, url, start) =>
        attachPlayer(video, { url, mode: 'hls', start, end: Number.POSITIVE_INFINITY, loop: false, autoplay: false }),
      onTime: (t) => {
        last = t;
        // What the editor does in setPlaybackTime: preload the next clip 2 s before this one ends.
        const at = locate(seq, t);
        if (at && at.index < seq.length - 1 && preloaded !== at.index && t >= preloadTime(seq, at.index)) {
          preloaded = at.index;
          preloads++;
          p.preload(at.index + 1);
        }
      },
      onPlaying: (playing) => {
        if (!playing && last >= total - 0.1) resolve();
      },
    });
    (window as unknown as { playback: SequencePlayback }).playback = p;
    p.setClips(seq, 0);
    const first = document.getElementById('a') as HTMLVideoElement;
    const start = () => p.play(1);
    if (first.readyState >= 2) start();
    else first.addEventListener('canplay', start, { once: true });
  });
  const t0 = performance.now();
  await done;
  const p = (window as unknown as { playback: SequencePlayback }).playback;
  const switches = [...p.switches];
  const trace = [...p.trace];
  p.destroy();
  return { switches, preloads, wallMs: performance.now() - t0, trace };
}

async function buildPreview(clips: BenchClip[]) {
  const t0 = performance.now();
  const { blob, timings } = await buildCompilationPreview(
    clips.map(({ playlistUrl, start, end, frameRate }) => ({ playlistUrl, start, end, frameRate })),
  );
  const wallMs = performance.now() - t0;
  const url = URL.createObjectURL(blob);
  const duration = await new Promise<number>((resolve) => {
    const v = document.createElement('video');
    v.onloadedmetadata = () => resolve(v.duration);
    v.onerror = () => resolve(NaN);
    v.src = url;
  });
  URL.revokeObjectURL(url);
  return { wallMs, timings, bytes: blob.size, duration };
}

/**
 * The clip editor with 50 clips: a clip dragged across, a handle trimmed, playback moving; per
 * frame, draw and sync ms (a one-pixel read that waits until the frame is really drawn).
 */
async function editorFrames(
  preference: RendererPreference = 'auto',
): Promise<{ frames: { cpu: number; sync: number }[]; renders: number; renderer: string }> {
  const clips = Array.from({ length: 50 }, (_, i) => testClip(`clip-${i}`, (i % 20) * 2, (i % 20) * 2 + 1 + (i % 3) * 0.6, `m${i % 4}`));
  const s = await TestSequence.create({ width: 1280, clips, pictures: true, renderer: preference });
  const canvas = s.canvas!;
  const renderer = s.engine.debug.app!.renderer;
  const out: { cpu: number; sync: number }[] = [];
  let drawn = 0;
  // After the editor's own animation-frame callback has drawn: its draw time, then a 1-pixel read
  // that waits for the GPU to finish the frame.
  const frame = () =>
    new Promise<void>((resolve) =>
      requestAnimationFrame(() => {
        if (s.frameMs.length > drawn) {
          drawn = s.frameMs.length;
          const t = performance.now();
          readOnePixel(renderer);
          out.push({ cpu: s.frameMs[drawn - 1]!, sync: performance.now() - t });
        }
        resolve();
      }),
    );
  await s.settle();
  for (let i = 0; i < 10; i++) await frame();
  out.length = 0;
  const rect = canvas.getBoundingClientRect();
  const y = rect.top + 75;
  const fire = (type: string, x: number) =>
    canvas.dispatchEvent(
      new PointerEvent(type, { clientX: x, clientY: y, button: 0, buttons: type === 'pointerup' ? 0 : 1, pointerId: 1 }),
    );
  fire('pointerdown', s.clipCenterX(3));
  await frame();
  for (let i = 0; i <= 120; i++) {
    fire('pointermove', rect.left + ((i % 60) / 60) * rect.width);
    await frame();
  }
  fire('pointerup', rect.left + rect.width / 2);
  await frame();
  for (let i = 0; i < 60; i++) {
    s.dragHandle('end', i % 2 ? -15 : 15);
    await frame();
  }
  for (let i = 0; i < 120; i++) {
    s.engine.setPlaybackTime(i / 30);
    await frame();
  }
  const renders = s.engine.renders;
  const name = renderer.name;
  await s.destroy();
  return { frames: out, renders, renderer: name };
}

const mergeBench = { playSequence, buildPreview, editorFrames };
export type MergeBenchApi = typeof mergeBench;
declare global {
  interface Window {
    mergeBench: MergeBenchApi;
  }
}
window.mergeBench = mergeBench;
document.body.dataset.ready = 'true';
