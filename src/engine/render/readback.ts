import type { Renderer } from 'pixi.js';

// Kept apart from pixiApp.ts, which the engines load lazily.
/**
 * Waits until the renderer has really drawn its last frame, by reading one pixel back (benchmarks
 * and tests: WebGL queues its work, a 2D canvas records it until a read). Returns false when
 * nothing can be read.
 */
export function readOnePixel(renderer: Renderer): boolean {
  const gl = (renderer as { gl?: WebGLRenderingContext }).gl;
  if (gl) {
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    return true;
  }
  const context = (renderer as { canvasContext?: { rootContext?: CanvasRenderingContext2D } }).canvasContext?.rootContext;
  if (!context) return false;
  context.getImageData(0, 0, 1, 1);
  return true;
}
