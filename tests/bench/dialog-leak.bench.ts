// Memory, WebGL contexts, workers and DOM after opening and closing the moment dialog (player,
// PixiJS timeline, thumbnail worker) 50 times in headless Chromium, in the real built app served by
// the real server. Figures after a forced garbage collection; target: flat, nothing leaked.
import { ROUTES } from '../../src/contract';
import { createVerifiedUser, openBrowser, signIn, startApp, uniqueEmail } from '../e2e/harness';
import { uploadCounterVideo } from '../fixtures/counterVideo';

const CYCLES = Number(process.env.BENCH_CYCLES ?? 50);
const app = await startApp();
const browser = await openBrowser();
try {
  const email = uniqueEmail('leak');
  const password = 'leak password';
  await createVerifiedUser(app, email, password);
  const { library: lib, media } = await uploadCounterVideo(app.url, email, password);
  if (media.status !== 'completed') throw new Error(`ingest ended ${media.status}`);

  const { page, context } = browser;
  // Count what the page creates and releases: WebGL contexts (created / lost) and workers.
  await context.addInitScript(() => {
    const w = window as unknown as { __leak: { gl: number; glLost: number; workers: number; terminated: number } };
    w.__leak = { gl: 0, glLost: 0, workers: 0, terminated: 0 };
    const getContext = HTMLCanvasElement.prototype.getContext;
    HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement, type: string, ...rest: unknown[]) {
      const ctx = (getContext as (...a: unknown[]) => RenderingContext | null).call(this, type, ...rest);
      if (ctx && (type === 'webgl' || type === 'webgl2') && !(this as unknown as { __counted?: boolean }).__counted) {
        (this as unknown as { __counted?: boolean }).__counted = true;
        w.__leak.gl++;
        this.addEventListener('webglcontextlost', () => w.__leak.glLost++);
      }
      return ctx;
    } as typeof getContext;
    const NativeWorker = window.Worker;
    window.Worker = class extends NativeWorker {
      constructor(url: string | URL, opts?: WorkerOptions) {
        super(url, opts);
        w.__leak.workers++;
      }
      override terminate() {
        w.__leak.terminated++;
        super.terminate();
      }
    } as typeof Worker;
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.enable');
  const sample = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const dom = (await cdp.send('Memory.getDOMCounters')) as { documents: number; nodes: number; jsEventListeners: number };
    const counts = await page.evaluate(() => ({
      ...(window as unknown as { __leak: { gl: number; glLost: number; workers: number; terminated: number } }).__leak,
      canvases: document.querySelectorAll('canvas').length,
      videos: document.querySelectorAll('video').length,
    }));
    return { heapMB: heap.usedSize / 1024 / 1024, nodes: dom.nodes, listeners: dom.jsEventListeners, ...counts };
  };

  await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${lib._id}`);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  await page.getByPlaceholder(/Ask me anything/).fill('counter');
  const card = page.locator(`.moment-card[data-media-id="${media._id}"]`).first();
  await card.waitFor({ timeout: 30_000 });
  // Hover previews would add their own players: keep the pointer off the cards between cycles.
  const cycle = async () => {
    await card.locator('.moment-card__frame').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('timeline-canvas').locator('canvas').waitFor();
    await page.waitForFunction(() => (document.querySelector<HTMLVideoElement>('[role=dialog] video')?.readyState ?? 0) >= 2);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.mouse.move(5, 5);
  };
  /** Live heap objects by kind and constructor (count, bytes), from a heap snapshot after GC. */
  const census = async () => {
    await cdp.send('HeapProfiler.collectGarbage');
    const chunks: string[] = [];
    const onChunk = (e: { chunk: string }) => chunks.push(e.chunk);
    cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    const snap = JSON.parse(chunks.join('')) as {
      snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
      nodes: number[];
      strings: string[];
    };
    const fields = snap.snapshot.meta.node_fields;
    const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
    const out = new Map<string, { count: number; bytes: number }>();
    for (let i = 0; i < snap.nodes.length; i += fields.length) {
      const type = snap.snapshot.meta.node_types[0][snap.nodes[i + typeAt]!]!;
      const key = type.includes('string') ? 'string' : `${type}: ${snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 70)}`;
      const e = out.get(key) ?? { count: 0, bytes: 0 };
      e.count++;
      e.bytes += snap.nodes[i + sizeAt]!;
      out.set(key, e);
    }
    return out;
  };

  for (let i = 0; i < 3; i++) await cycle(); // warm-up: code, hls.js, Pixi and the worker loaded once
  const before = await sample();
  const t0 = performance.now();
  const mid: Array<Awaited<ReturnType<typeof sample>>> = [];
  let early: Awaited<ReturnType<typeof census>> | undefined;
  for (let i = 1; i <= CYCLES; i++) {
    await cycle();
    if (i % 10 === 0) mid.push(await sample());
    if (i === 10) early = await census();
  }
  const late = early ? await census() : undefined;
  const after = mid.at(-1)!;
  const row = (label: string, s: Awaited<ReturnType<typeof sample>>) =>
    `${label.padEnd(16)} ${s.heapMB.toFixed(1).padStart(7)} ${String(s.nodes).padStart(7)} ${String(s.listeners).padStart(9)} ${String(
      s.gl - s.glLost,
    ).padStart(9)} ${String(s.workers - s.terminated).padStart(8)} ${String(s.canvases).padStart(8)} ${String(s.videos).padStart(6)}`;
  console.log(`moment dialog opened and closed ${CYCLES} times (${((performance.now() - t0) / CYCLES).toFixed(0)} ms a cycle)\n`);
  console.log('after            heap MB   nodes listeners live WebGL workers canvases videos');
  console.log(row('warm-up (3)', before));
  mid.forEach((s, i) => console.log(row(`cycle ${(i + 1) * 10}`, s)));
  console.log(
    `\nWebGL contexts created ${after.gl}, lost/released ${after.glLost}; workers started ${after.workers}, terminated ${after.terminated}`,
  );
  if (early && late) {
    // What the heap gained after cycle 10, by what it is: tells JIT code and the browser's own
    // buffers (performance entries, DevTools' network records, which exist because CDP drives the
    // page) from objects the app keeps.
    const growth = [...late]
      .map(([key, v]) => ({ key, count: v.count - (early.get(key)?.count ?? 0), bytes: v.bytes - (early.get(key)?.bytes ?? 0) }))
      .filter((g) => g.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes);
    const total = growth.reduce((n, g) => n + g.bytes, 0);
    console.log(`\nheap grown from cycle 10 to ${CYCLES}: ${(total / 1024).toFixed(0)} KB; largest kinds (KB, objects):`);
    for (const g of growth.slice(0, 12)) console.log(`${(g.bytes / 1024).toFixed(1).padStart(8)} ${String(g.count).padStart(6)}  ${g.key}`);
  }
  const flat =
    after.gl - after.glLost === before.gl - before.glLost &&
    after.workers - after.terminated === before.workers - before.terminated &&
    after.canvases === before.canvases &&
    after.heapMB < before.heapMB * 1.1 + 2;
  console.log(`flat (no contexts, workers or canvases left; heap within 10 % + 2 MB): ${flat ? 'yes' : 'NO'}`);
  if (browser.pageErrors.length) throw new Error(`page errors: ${browser.pageErrors.join('; ')}`);
  if (browser.offHost.length) throw new Error(`off-host requests: ${browser.offHost.join(', ')}`);
} finally {
  await browser.close();
  await app.close();
}
