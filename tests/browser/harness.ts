import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseRanges, rangeResponse } from '../../src/server/http/byteRanges';
import { openBrowser, type Browser } from '../e2e/harness';

/**
 * Pages that run the engine and the workers in real Chromium, for tests and benchmarks that need
 * WebGL, WebCodecs, workers or OffscreenCanvas. Pages live in tests/browser/pages/<area>/*.html.
 */
const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../..');
const DIST = path.join(HERE, 'dist');

function newestMtime(p: string): number {
  if (!fs.existsSync(p)) return 0;
  const st = fs.statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((n) => newestMtime(path.join(p, n))));
}

/** Builds the pages unless the build is newer than every source they are built from. */
export function ensurePagesBuilt() {
  const stamp = path.join(DIST, '.built');
  // (pages import the app's own modules too, such as the merge dialog's sequence playback)
  const sources = ['src/engine', 'src/workers', 'src/contract', 'src/app', 'tests/browser/pages', 'tests/browser/vite.config.ts'];
  if (fs.existsSync(stamp) && fs.statSync(stamp).mtimeMs > Math.max(...sources.map((s) => newestMtime(path.join(REPO, s))))) return;
  execFileSync(path.join(REPO, 'node_modules/.bin/vite'), ['build', '--config', path.join(HERE, 'vite.config.ts')], {
    cwd: REPO,
    stdio: 'inherit',
  });
  fs.writeFileSync(stamp, new Date().toISOString());
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.map': 'application/json',
};

export interface PageServer {
  url: string;
  /** Every request the server answered: path, Range header and bytes sent. */
  requests: { path: string; range: string | undefined; bytes: number }[];
  close(): Promise<void>;
}

/**
 * Serves the built pages on 127.0.0.1, plus `files` (URL path -> file on disk) with byte ranges
 * honoured as the app's media source route does, as the thumbnail worker reads media.
 */
export async function servePages(files: Record<string, string> = {}): Promise<PageServer> {
  ensurePagesBuilt();
  const requests: PageServer['requests'] = [];
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = files[urlPath] ?? path.join(DIST, path.normalize(urlPath).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(DIST) && !Object.values(files).includes(file)) return void res.writeHead(403).end();
    let target = file;
    if (fs.existsSync(target) && fs.statSync(target).isDirectory()) target = path.join(target, 'index.html');
    if (!fs.existsSync(target)) return void res.writeHead(404).end('not found');
    const size = fs.statSync(target).size;
    const type = TYPES[path.extname(target)] ?? 'application/octet-stream';
    // Ranges as the app's media source route serves them (one, several as multipart, or 416).
    const out = rangeResponse(
      req.headers.range,
      size,
      type,
      (r) => fs.createReadStream(target, { start: r.start, end: r.end - 1 }),
      req.method === 'HEAD',
    );
    const ranges = parseRanges(req.headers.range, size);
    const sent = ranges === 'unsatisfiable' ? [] : (ranges ?? [{ start: 0, end: size }]);
    requests.push({ path: urlPath, range: req.headers.range, bytes: sent.reduce((n, r) => n + r.end - r.start, 0) });
    res.writeHead(out.status, out.headers);
    if (out.body) out.body.pipe(res);
    else res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Chromium (one at a time) on a page of tests/browser/pages, e.g. `openPage(server, 'engine/timeline.html')`. */
export async function openPage(server: PageServer, page: string, viewport = { width: 1280, height: 720 }): Promise<Browser> {
  const browser = await openBrowser(viewport);
  browser.page.on('console', (msg) => {
    if (msg.type() === 'error') browser.pageErrors.push(`console: ${msg.text()}`);
  });
  await browser.page.goto(`${server.url}/${page}`);
  return browser;
}
