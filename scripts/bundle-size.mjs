// `node scripts/bundle-size.mjs [--dist dist] [--budget 300] [--chunks]`: how much JavaScript (gzip) each
// page of the built app fetches before it can paint, read from Vite's manifest (dist/.vite/manifest.json,
// `build.manifest` in vite.config.ts). A page's first load is the entry with every chunk it imports
// statically (index.html modulepreloads them) plus, for a lazy route, the route's chunk and its static
// imports (Vite preloads those with the dynamic import). Exits 1 when a first load is over the budget,
// 2 when there is no manifest. Sizes are in kB of 1000 bytes, gzip level 9, as `vite build` prints them.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';

const { values: opts } = parseArgs({
  options: {
    dist: { type: 'string', default: path.resolve(import.meta.dirname, '..', 'dist') },
    budget: { type: 'string', default: '300' },
    chunks: { type: 'boolean', default: false },
  },
});
const budgetKb = Number(opts.budget);
const manifestPath = path.join(opts.dist, '.vite', 'manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: build the app first (npx vite build).`);
  process.exit(2);
}
/** @type {Record<string, {file: string, src?: string, name?: string, isEntry?: boolean, imports?: string[], dynamicImports?: string[]}>} */
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));

const gzipCache = new Map();
/** Gzip size in bytes of one emitted file. */
const gzipSize = (file) => {
  if (!gzipCache.has(file)) gzipCache.set(file, zlib.gzipSync(fs.readFileSync(path.join(opts.dist, file)), { level: 9 }).length);
  return gzipCache.get(file);
};

/** The manifest keys loaded with `key`: itself and its static imports, recursively. */
function staticClosure(key, into = new Set()) {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`The manifest names ${key} but has no entry for it`);
  into.add(key);
  for (const dep of chunk.imports ?? []) staticClosure(dep, into);
  return into;
}

const jsFiles = (keys) => [...keys].map((k) => manifest[k].file).filter((f) => f.endsWith('.js'));
const gzipOf = (keys) => jsFiles(keys).reduce((sum, f) => sum + gzipSize(f), 0);
const kb = (bytes) => (bytes / 1000).toFixed(1).padStart(6);
const labelOf = (key) => manifest[key].src ?? manifest[key].name ?? key;

const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
if (entries.length === 0) {
  console.error(`${manifestPath} has no entry chunk.`);
  process.exit(2);
}

const over = [];
const check = (label, bytes) => {
  if (bytes > budgetKb * 1000) over.push(`${label}: ${kb(bytes).trim()} kB`);
};
const width = 48;

console.log(`First-load JavaScript, gzip (budget ${budgetKb} kB per page):`);
const onDemand = []; // [route, lazy chunk, gzip bytes beyond the route's page]
for (const entryKey of entries) {
  const entry = staticClosure(entryKey);
  const entryBytes = gzipOf(entry);
  check(`entry ${labelOf(entryKey)}`, entryBytes);
  console.log(`  ${`entry ${labelOf(entryKey)} (${jsFiles(entry).length} files)`.padEnd(width)} ${kb(entryBytes)} kB`);

  // The entry's dynamic imports are the lazy routes; theirs in turn are parts loaded on demand.
  const routes = new Set(manifest[entryKey].dynamicImports ?? []);
  routes.delete(entryKey);
  for (const routeKey of routes) {
    const page = staticClosure(routeKey, new Set(entry));
    const bytes = gzipOf(page);
    check(`route ${labelOf(routeKey)}`, bytes);
    console.log(`  ${`+ ${labelOf(routeKey)}`.padEnd(width)} ${kb(bytes)} kB  (+${kb(bytes - entryBytes).trim()})`);
    const lazies = new Set([...page].flatMap((k) => manifest[k].dynamicImports ?? []).filter((k) => !routes.has(k)));
    for (const lazy of lazies) onDemand.push([routeKey, lazy, gzipOf(staticClosure(lazy, new Set(page))) - bytes]);
  }
}
if (onDemand.length) {
  console.log('\nLoaded on demand inside a page (gzip JS beyond the page, before its own dynamic imports):');
  for (const [route, lazy, bytes] of onDemand)
    console.log(
      `  ${`${path.basename(labelOf(route))}: ${labelOf(lazy).replace(/^(\.\.\/)+node_modules\//, '')}`.padEnd(width)} +${kb(bytes).trim()} kB`,
    );
}

if (opts.chunks) {
  console.log('\nChunks (minified / gzip):');
  const files = [...new Set(Object.values(manifest).map((c) => c.file))].filter((f) => f.endsWith('.js'));
  files.sort((a, b) => gzipSize(b) - gzipSize(a));
  for (const f of files) console.log(`  ${f.padEnd(width)} ${kb(fs.statSync(path.join(opts.dist, f)).size)} kB ${kb(gzipSize(f))} kB`);
}

if (over.length) {
  console.error(`\nOver the first-load budget of ${budgetKb} kB gzip:\n  ${over.join('\n  ')}`);
  process.exit(1);
}
