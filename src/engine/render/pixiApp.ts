import { Application, Ticker } from 'pixi.js';
// Pixi's eval-free shader and uniform uploaders: the app's Content-Security-Policy allows no eval.
import 'pixi.js/unsafe-eval';
import type { Teardown } from '../Teardown';

/**
 * A Pixi application that draws only when asked: no ticker, no Pixi event system (it listens on
 * window and polls) and no accessibility overlay. Pointer and keys are the engine's own.
 */
export async function createOnDemandApp(o: { width: number; height: number; background: number }): Promise<Application> {
  // Pixi's shared system ticker runs a requestAnimationFrame loop for its GC scheduler and event
  // polling. The engines render on demand and free their textures themselves, so it stays stopped.
  Ticker.system.autoStart = false;
  Ticker.system.stop();
  const app = new Application();
  await app.init({
    preference: 'webgl',
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
