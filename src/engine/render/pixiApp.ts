import { Application, extensions, ExtensionType, GlLimitsSystem, Ticker } from 'pixi.js';
// Pixi's eval-free shader and uniform uploaders: the app's Content-Security-Policy allows no eval.
import 'pixi.js/unsafe-eval';
import type { Teardown } from '../Teardown';
import { softwareWebGl } from './softwareGl';

/**
 * Textures one draw call may sample. Pixi batches up to 16 by default, with a shader that picks the
 * texture through a chain of 16 ifs per pixel; a renderer without a GPU (SwiftShader, software GL in
 * VMs and remote desktops) pays for every branch: the clip editor's frame took 36 ms there and takes
 * 12 ms with one (tests/bench/merge.bench.ts). A GPU draws the extra calls (one per picture) for free.
 */
export const MAX_BATCH_TEXTURES = 1;

/** Pixi's WebGL limits, with batches capped at MAX_BATCH_TEXTURES (it replaces the system of the same name). */
class CappedLimitsSystem extends GlLimitsSystem {
  static override extension = { type: [ExtensionType.WebGLSystem], name: 'limits' } as const;

  override contextChange() {
    super.contextChange();
    this.maxBatchableTextures = Math.min(this.maxBatchableTextures, MAX_BATCH_TEXTURES);
  }
}

let limitsCapped = false;
function capBatchTextures() {
  if (limitsCapped) return;
  limitsCapped = true;
  extensions.remove(GlLimitsSystem);
  extensions.add(CappedLimitsSystem);
}

/** Which Pixi renderer draws an engine: 'auto' picks canvas where WebGL runs in software. */
export type RendererPreference = 'auto' | 'webgl' | 'canvas';

/** The renderer 'auto' stands for on this device. */
export function rendererFor(preference: RendererPreference): 'webgl' | 'canvas' {
  if (preference !== 'auto') return preference;
  return softwareWebGl() ? 'canvas' : 'webgl';
}

/**
 * A Pixi application that draws only when asked: no ticker, no Pixi event system (it listens on
 * window and polls) and no accessibility overlay. Pointer and keys are the engine's own.
 */
export async function createOnDemandApp(o: {
  width: number;
  height: number;
  background: number;
  renderer?: RendererPreference;
}): Promise<Application> {
  // Pixi's shared system ticker runs a requestAnimationFrame loop for its GC scheduler and event
  // polling. The engines render on demand and free their textures themselves, so it stays stopped.
  Ticker.system.autoStart = false;
  Ticker.system.stop();
  capBatchTextures();
  const app = new Application();
  const kind = rendererFor(o.renderer ?? 'auto');
  await app.init({
    // Without WebGL at all Pixi's canvas renderer stands in.
    preference: kind === 'webgl' ? ['webgl', 'canvas'] : ['canvas'],
    autoStart: false,
    sharedTicker: false,
    skipExtensionImports: true,
    width: o.width,
    height: o.height,
    resolution: Math.min(2, globalThis.devicePixelRatio || 1),
    autoDensity: true,
    antialias: false,
    background: o.background,
  });
  const events = (app.renderer as { events?: { setTargetElement(el: HTMLElement | null): void } }).events;
  // If another part of the page registered Pixi's event system, detach it from this canvas.
  events?.setTargetElement(null);
  return app;
}

/** Puts the app's canvas into `container` (block, no browser touch gestures) until teardown. */
export function mountCanvas(app: Application, container: HTMLElement, testId: string, teardown: Teardown) {
  const canvas = app.canvas;
  canvas.style.display = 'block';
  canvas.style.touchAction = 'none';
  canvas.dataset.testid = testId;
  container.appendChild(canvas);
  teardown.add(() => canvas.remove());
  return canvas;
}
