// `npm start`: installs the Debian tools the indexer runs (ffmpeg, pocketsphinx) when it can, builds
// the web app when it is missing or older than its sources, then runs the server (app + API on one
// port) from the TypeScript sources. A tool that cannot be installed does not stop the start: the
// server reports the features it turns off (in the log, on /health and in the app).
import { spawnSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { provision, SERVER_PACKAGES } from './provision.mjs';

const root = path.resolve(import.meta.dirname, '..');
const { hint } = provision(SERVER_PACKAGES);
if (hint) console.warn(`${hint} The server starts without the features they provide.`);
const newest = (dir) => {
  let t = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) t = Math.max(t, fs.statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
  }
  return t;
};
const built = path.join(root, 'dist', 'index.html');
const stale =
  !fs.existsSync(built) ||
  Math.max(newest(path.join(root, 'src', 'app')), newest(path.join(root, 'src', 'contract')), newest(path.join(root, 'public'))) >
    fs.statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web app...');
  const r = spawnSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src', 'server', 'main.ts')], { cwd: root, stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code) => process.exit(code ?? 0));
