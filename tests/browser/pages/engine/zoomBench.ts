import type { RendererPreference } from '../../../../src/engine/render/pixiApp';
import type { FrameStats } from '../../../../src/engine/TimelineEngine';
import { WHEEL_NOTCH_PX, ZOOM_PER_NOTCH } from '../../../../src/engine/kernels';
import { SyntheticThumbnails } from '../../drivers/SyntheticThumbnails';
import { TestTimeline } from '../../drivers/TestTimeline';

export interface ZoomBenchResult {
  /** The Pixi renderer that drew ('webgl' or 'canvas'). */
  renderer: string;
  frames: FrameStats[];
  steps: number;
  maxZoom: number;
  finalZoom: number;
  maxTiles: number;
  maxLabels: number;
  thumbnailRequests: number;
  thumbnailsAborted: number;
  anchorDriftPx: number;
}

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/**
 * A two-hour media at 30 fps with synthetic thumbnails: wheel from 100 % to 10 000 % in `steps`
 * steps anchored at one pointer position, then back, one step per animation frame.
 */
export async function runZoomBench({
  width = 1280,
  steps = 200,
  syncGpu = true,
  renderer = 'auto' as RendererPreference,
} = {}): Promise<ZoomBenchResult> {
  const thumbs = new SyntheticThumbnails({ cacheSize: 96 });
  const t = await TestTimeline.create({
    width,
    media: { duration: 7200, frameRate: 30 },
    thumbnails: thumbs,
    range: { start: 3000, end: 3400 },
    syncGpu,
    renderer,
  });
  t.engine.seek(3150);
  await t.settle();
  const x = t.clientX(width * 0.6);
  const anchorTime = t.timeAtClientX(x);
  // Ctrl+wheel deltas of a fraction of a notch each (a trackpad pinch), 100x in `steps` of them.
  const deltaY = -(Math.log(100) / steps / Math.log(ZOOM_PER_NOTCH)) * WHEEL_NOTCH_PX;
  t.frames.length = 0;
  let maxZoom = 0;
  let maxTiles = 0;
  let maxLabels = 0;
  let anchorDriftPx = 0;
  for (let i = 0; i < steps * 2; i++) {
    t.wheel(i < steps ? deltaY : -deltaY, x, { ctrlKey: true });
    await nextFrame();
    const d = t.engine.debug;
    maxZoom = Math.max(maxZoom, t.state.zoom);
    maxTiles = Math.max(maxTiles, d.thumbnails?.live ?? 0);
    maxLabels = Math.max(maxLabels, d.rulerLabels);
    if (t.state.zoom > 100.001) anchorDriftPx = Math.max(anchorDriftPx, Math.abs(t.clientXAt(anchorTime) - x));
  }
  await t.settle();
  const result: ZoomBenchResult = {
    renderer: t.engine.debug.app?.renderer.name ?? 'none',
    frames: t.frames.slice(),
    steps: steps * 2,
    maxZoom,
    finalZoom: t.state.zoom,
    maxTiles,
    maxLabels,
    thumbnailRequests: thumbs.requests.length,
    thumbnailsAborted: thumbs.aborted,
    anchorDriftPx,
  };
  await t.destroy();
  thumbs.destroy();
  return result;
}
