import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vite';

// Test and benchmark pages for the engine and the workers: every pages/**/*.html is an entry,
// built into tests/browser/dist and served on 127.0.0.1 by harness.ts. Not part of the app build.
const root = path.join(import.meta.dirname, 'pages');

function htmlFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return htmlFiles(full);
    return e.name.endsWith('.html') ? [full] : [];
  });
}

export default defineConfig({
  root,
  logLevel: 'warn',
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: { input: Object.fromEntries(htmlFiles(root).map((f) => [path.relative(root, f).replace(/\.html$/, ''), f])) },
  },
  worker: { format: 'es' },
});
