// `npm run bench`: runs every benchmark in tests/bench (or those named on the command line) and
// prints their figures. Each benchmark is a standalone script that prints its own table.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'tests', 'bench');
const only = process.argv.slice(2);
const all = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts'));
// A name picks its own file exactly (`load` is load.bench.ts, not upload.bench.ts); otherwise every
// file whose name contains it.
const picked = (o) => (all.includes(`${o}.bench.ts`) ? [`${o}.bench.ts`] : all.filter((f) => f.includes(o)));
const files = (only.length === 0 ? all : [...new Set(only.flatMap(picked))]).sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${only.join(', ')} (in ${dir})`);
  process.exit(1);
}
let failed = 0;
for (const f of files) {
  console.log(`\n=== ${f} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, f)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
