import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(REPO, 'scripts/bundle-size.mjs');
const BUILT_MANIFEST = path.join(REPO, 'dist/.vite/manifest.json');

const bundleSize = (...args: string[]) => {
  const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
};

// `npm test` builds the app before the tests run; a bare `vitest --project unit` may find no build.
describe.skipIf(!fs.existsSync(BUILT_MANIFEST))('the built app (dist/)', () => {
  it('fetches at most 300 kB gzip of JavaScript before the first page or any lazy route paints', () => {
    const { status, out } = bundleSize();
    expect(status, out).toBe(0);
  });

  it('loads the timeline (PixiJS) and hls.js only on demand inside the search and library screens', () => {
    const { out } = bundleSize();
    const onDemand = out.slice(out.indexOf('Loaded on demand'));
    for (const screen of ['SearchScreen', 'LibraryScreen'])
      for (const part of ['timeline/TimelineView.tsx', 'hls.js/dist/hls.light.mjs'])
        expect(onDemand, out).toContain(`${screen}.tsx: ${part}`);
  });

  it('loads the merge dialog (clip editor, players, ffmpeg.wasm client) only when Merge is pressed', () => {
    const { out } = bundleSize();
    const onDemand = out.slice(out.indexOf('Loaded on demand'));
    expect(onDemand, out).toContain('SearchScreen.tsx: merge/MergeDialog.tsx');
    expect(out.slice(0, out.indexOf('Loaded on demand')), out).not.toMatch(/ffmpeg|MergeDialog/);
  });
});

describe('scripts/bundle-size.mjs', () => {
  // Random bytes do not compress, so a file's gzip size is its size plus a few bytes.
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'bundle-size-'));
  const emit = (file: string, kb: number) => fs.writeFileSync(path.join(dist, file), randomBytes(kb * 1000));
  emit('entry.js', 50);
  emit('shared.js', 50);
  emit('route.js', 10);
  emit('routeDep.js', 100);
  emit('timeline.js', 500);
  emit('style.css', 400);
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.writeFileSync(
    path.join(dist, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': {
        file: 'entry.js',
        src: 'index.html',
        isEntry: true,
        imports: ['_shared.js'],
        dynamicImports: ['Route.tsx'],
        css: ['style.css'],
      },
      '_shared.js': { file: 'shared.js' },
      'Route.tsx': {
        file: 'route.js',
        src: 'Route.tsx',
        isDynamicEntry: true,
        imports: ['_shared.js', '_routeDep.js'],
        dynamicImports: ['Timeline.tsx'],
      },
      '_routeDep.js': { file: 'routeDep.js' },
      'Timeline.tsx': { file: 'timeline.js', src: 'Timeline.tsx', isDynamicEntry: true, imports: ['_shared.js'] },
    }),
  );
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('counts what a page imports statically, and neither CSS nor what it imports dynamically', () => {
    const { status, out } = bundleSize('--dist', dist, '--budget', '250');
    expect(status, out).toBe(0);
    expect(out).toMatch(/entry index\.html \(2 files\)\s+100\.\d kB/);
    expect(out).toMatch(/\+ Route\.tsx\s+210\.\d kB\s+\(\+110\.\d\)/);
    expect(out).toMatch(/Route\.tsx: Timeline\.tsx\s+\+500\.\d kB/);
  });

  it('fails, naming the page, when a first load is over the budget', () => {
    const { status, out } = bundleSize('--dist', dist, '--budget', '200');
    expect(status).toBe(1);
    expect(out).toMatch(/Over the first-load budget of 200 kB gzip:\s+route Route\.tsx: 210\.\d kB/);
    expect(out).not.toMatch(/entry index\.html: /);
  });

  it('says to build first when there is no manifest', () => {
    const { status, out } = bundleSize('--dist', path.join(dist, 'missing'));
    expect(status).toBe(2);
    expect(out).toContain('build the app first');
  });
});
