// `npm test`: provisions what a fresh Debian machine lacks, builds the app, then runs every test
// tier (unit, integration, end-to-end) on embedded PGlite, and the integration tier again on a real
// PostgreSQL started here. Arguments are passed to vitest (e.g. `npm test -- --project unit`).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const run = (cmd, cmdArgs, opts = {}) => {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
};

// 1. System packages: binary -> Debian package.
const NEEDED = [
  ['/usr/bin/chromium', 'chromium'],
  ['ffmpeg', 'ffmpeg'],
  ['ffprobe', 'ffmpeg'],
  ['/usr/lib/postgresql', 'postgresql'],
];
const present = (bin) => (bin.startsWith('/') ? fs.existsSync(bin) : has(bin));
const missing = [...new Set(NEEDED.filter(([bin]) => !present(bin)).map(([, pkg]) => pkg))];
if (missing.length) {
  const isRoot = process.getuid?.() === 0;
  if (isRoot && has('apt-get')) {
    console.log(`Installing ${missing.join(', ')} with apt-get...`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    if (
      run('apt-get', ['update', '-qq'], { env }) !== 0 ||
      run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env }) !== 0
    ) {
      console.error(`Could not install ${missing.join(' ')}: install them with apt-get and run npm test again.`);
      process.exit(1);
    }
  } else {
    console.error(`Missing system packages: install them with \`sudo apt-get install -y ${missing.join(' ')}\`, then run npm test again.`);
    process.exit(1);
  }
}

// 2. npm dependencies, when this is a fresh clone.
if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}

// 3. The built app the end-to-end tests click through.
if (run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']) !== 0) process.exit(1);

const vitest = (extra, env = process.env) => run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...extra], { env });

let failed = 0;
// 4. Every tier on the embedded defaults.
failed |= vitest(args);

// 5. The integration tier again on a real PostgreSQL (skipped when only some projects were asked for).
const onlySome = args.some((a) => a.startsWith('--project') || !a.startsWith('-'));
if (!onlySome || process.env.TEST_POSTGRES === '1') {
  const pg = startPostgres();
  try {
    console.log(`\n== integration tests on PostgreSQL (${pg.url}) ==`);
    failed |= vitest(['--project', 'integration', ...args], { ...process.env, TEST_DATABASE_URL: pg.url });
  } finally {
    pg.stop();
  }
}
process.exit(failed ? 1 : 0);

function startPostgres() {
  const versions = fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a));
  const bin = path.join('/usr/lib/postgresql', versions[0], 'bin');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-pg-'));
  const data = path.join(dir, 'data');
  const port = String(15432 + Math.floor(Math.random() * 1000));
  // PostgreSQL refuses to run as root: run it as the postgres user when we are root.
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asUser.length) execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  const exec = (cmd, a) => execFileSync(asUser[0] ?? cmd, asUser.length ? [...asUser.slice(1), cmd, ...a] : a, { stdio: 'pipe' });
  exec(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  exec(path.join(bin, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(dir, 'log'),
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
    '-w',
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        exec(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
