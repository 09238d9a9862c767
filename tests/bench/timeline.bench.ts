// Timeline engine: zoom a two-hour media (30 fps, synthetic thumbnails drawn on an OffscreenCanvas)
// from 100 % to 10 000 % in 200 wheel steps anchored at the pointer and back, one step per frame,
// in headless Chromium, with the renderer the app picks here ('auto': Pixi's canvas renderer where
// WebGL is software, as SwiftShader is in this headless Chromium) and with WebGL forced, for
// comparison. Prints per-frame timings; target p95 <= 16 ms.
// Run: node --import tsx tests/bench/timeline.bench.ts  (or npm run bench timeline).
// Launches Chromium: on shared machines wrap it in `flock /tmp/clipseek-chromium.lock`.
import os from 'node:os';
import { openPage, servePages } from '../browser/harness';

const STEPS = 200;
const WIDTH = 1280;

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
};
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2).padStart(8) : '       -');

async function main(): Promise<number> {
  const server = await servePages();
  const browser = await openPage(server, 'engine/index.html', { width: WIDTH + 100, height: 300 });
  try {
    const { page } = browser;
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    const glName = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return info && gl ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'unknown';
    });
    console.log(`WebGL: ${glName}; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
    let failed = false;
    let autoRenderer = '';
    for (const preference of ['auto', 'webgl'] as const) {
      if (preference === 'webgl' && autoRenderer === 'webgl') break;
      // A warm-up round first (discarded): SwiftShader compiles its pipelines on first use.
      const warm = await page.evaluate(
        (renderer) => window.engineTest.runZoomBench({ width: 1280, steps: 40, syncGpu: true, renderer }),
        preference,
      );
      const warmFrames = warm.frames.map((f) => f.updateMs + (f.gpuSyncMs ?? f.renderMs));
      const result = await page.evaluate(
        ({ steps, renderer }) => window.engineTest.runZoomBench({ width: 1280, steps, syncGpu: true, renderer }),
        { steps: STEPS, renderer: preference },
      );
      if (preference === 'auto') autoRenderer = result.renderer;
      const frames = result.frames;
      const rows: [string, number[]][] = [
        ['layers update (CPU)', frames.map((f) => f.updateMs)],
        ['app.render()', frames.map((f) => f.renderMs)],
        ['update + render', frames.map((f) => f.updateMs + f.renderMs)],
        ['render + draw sync', frames.filter((f) => f.gpuSyncMs !== null).map((f) => f.gpuSyncMs!)],
        ['  of which bare sync', frames.filter((f) => f.roundTripMs !== null).map((f) => f.roundTripMs!)],
        ['frame (all above)', frames.map((f) => f.updateMs + (f.gpuSyncMs ?? f.renderMs))],
      ];
      console.log('');
      console.log(
        `== renderer ${preference === 'auto' ? `auto (the app's choice here): ${result.renderer}` : `${result.renderer} (forced)`} ==`,
      );
      console.log(
        `warm-up round (discarded): ${warmFrames.length} frames, p50 ${quantile(warmFrames, 0.5).toFixed(2)} ms, p95 ${quantile(warmFrames, 0.95).toFixed(2)} ms`,
      );
      console.log(
        `media 7200 s at 30 fps, ${WIDTH} px wide; ${result.steps} wheel steps (100 % -> ${Math.round(result.maxZoom)} % -> ${Math.round(result.finalZoom)} %)`,
      );
      console.log(`frames drawn ${frames.length}; most tiles live ${result.maxTiles}; most ruler labels ${result.maxLabels}`);
      console.log(
        `thumbnail requests ${result.thumbnailRequests} (aborted ${result.thumbnailsAborted}); anchor drift ${result.anchorDriftPx.toFixed(3)} px`,
      );
      console.log('');
      console.log(`${'per frame, ms'.padEnd(22)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'max'.padStart(8)}`);
      for (const [name, xs] of rows)
        console.log(`${name.padEnd(22)}${ms(quantile(xs, 0.5))}${ms(quantile(xs, 0.95))}${ms(Math.max(...xs))}`);
      const verdict = (name: string, xs: number[]) => {
        const p95 = quantile(xs, 0.95);
        console.log(`p95 ${name} ${p95.toFixed(2)} ms: ${p95 <= 16 ? 'within' : 'OVER'} the 16 ms target`);
      };
      console.log('');
      verdict('engine frame on the CPU (update + app.render)', rows[2]![1]);
      verdict('frame including the draw sync', rows[5]![1]);
      if (result.maxZoom < 9999 || result.finalZoom > 100.01) {
        console.error('zoom did not reach both ends');
        failed = true;
      }
    }
    if (browser.pageErrors.length) {
      console.error('page errors:', browser.pageErrors);
      return 1;
    }
    return failed ? 1 : 0;
  } finally {
    await browser.close();
    await server.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
