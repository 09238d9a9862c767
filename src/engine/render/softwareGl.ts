// Which WebGL is software; no Pixi here (unit-tested in Node).

/** GPU strings of WebGL implementations that run on the CPU. */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** True when a WebGL renderer string (UNMASKED_RENDERER_WEBGL) names a software implementation. */
export function isSoftwareRenderer(name: string): boolean {
  return SOFTWARE_GL.test(name);
}

let softwareGlCache: boolean | null = null;

/**
 * True when this browser's WebGL is a software renderer (SwiftShader, Mesa's llvmpipe, Microsoft's
 * Basic Render Driver): headless browsers, VMs and remote desktops. There the GPU's work is done by
 * the CPU pixel by pixel through an emulated shader pipeline, and the browser's own 2D canvas (Skia,
 * made for the CPU) draws the same timelines about twice as fast (npm run bench timeline, merge). Read
 * once per page from WEBGL_debug_renderer_info; the probe's context is released at once.
 * `failIfMajorPerformanceCaveat` would be the standard test, but headless Chromium grants
 * SwiftShader contexts with it.
 */
export function softwareWebGl(): boolean {
  if (softwareGlCache !== null) return softwareGlCache;
  softwareGlCache = false;
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (gl) {
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
      softwareGlCache = isSoftwareRenderer(name);
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  } catch {
    // No WebGL at all: Pixi falls back on its canvas renderer by itself.
  }
  return softwareGlCache;
}
