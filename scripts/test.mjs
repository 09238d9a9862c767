// `npm test`: provisions what a fresh Debian machine lacks, builds the app, then runs every test
// tier: unit and browser first, then end-to-end beside integration (on embedded PGlite, then again
// on a real PostgreSQL started here). Arguments are passed to vitest (e.g. `npm test -- --project
// unit`), which then runs one pass.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { has, provision, TEST_PACKAGES } from './provision.mjs';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const run = (cmd, cmdArgs, opts = {}) => {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', ...opts });
  return r.status ?? 1;
};

// 1. System packages (see provision.mjs).
const { missing, hint } = provision(TEST_PACKAGES);
if (missing.length) {
  console.error(`${hint} Then run npm test again.`);
  process.exit(1);
}

// 1b. pgvector for the real-PostgreSQL pass: bookworm has no binary package, so it is built from
// Debian's source package (trixie's), as ARCHITECTURE.md says.
ensurePgvector();

// 2. npm dependencies, when this is a fresh clone.
if (!fs.existsSync(path.join(root, 'node_modules', '.package-lock.json'))) {
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}

// 3. The built app the end-to-end tests click through.
if (run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn']) !== 0) process.exit(1);

// The servers the tests start run their renders and indexing at a low priority (nice) but not under
// SCHED_IDLE: the test processes around them keep both cores busy, and would starve them.
process.env.BACKGROUND_IDLE ??= 'false';
// Each pass also writes a JSON report, so that what failed is repeated at the very end of the
// output, after the PostgreSQL pass: a log read from its tail (CI's) otherwise shows only that pass.
const reports = [];
const ownReporter = args.some((a) => a.startsWith('--reporter'));
/** A vitest pass, started now; resolves to its exit status. `log`: a file its output goes to instead of this terminal. */
const vitest = (label, extra, { env = process.env, log } = {}) => {
  const report = path.join(os.tmpdir(), `clipseek-vitest-${process.pid}-${reports.length}.json`);
  fs.rmSync(report, { force: true });
  reports.push({ label, report });
  const reporting = ownReporter ? [] : ['--reporter=default', '--reporter=json', `--outputFile.json=${report}`];
  const out = log ? fs.openSync(log, 'a') : 'inherit';
  const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...reporting, ...extra], {
    cwd: root,
    env,
    stdio: ['inherit', out, out],
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      if (log) fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
};

/**
 * Integration files the full run leaves out of its PostgreSQL pass: they read no database
 * (captionStates, posterFrame, ytdlp), or check rendered media (framing, editorExports, captions)
 * through API paths that rendering, uploads and transcriptCorrections already take on PostgreSQL.
 * Run on PGlite, they would only repeat the same ffmpeg and pocketsphinx work (~100 s of the lane).
 * Named on the command line with TEST_POSTGRES=1, they still run on both.
 */
const EMBEDDED_ONLY = ['captionStates', 'posterFrame', 'ytdlp', 'framing', 'editorExports', 'captions'].map(
  (name) => `tests/integration/${name}.test.ts`,
);

/** The integration tier on a real PostgreSQL started here. */
async function postgresPass(extra, log) {
  const pg = startPostgres();
  try {
    const say = `\n== integration tests on PostgreSQL (${pg.url}) ==\n`;
    if (log) fs.appendFileSync(log, say);
    else console.log(say);
    return await vitest('PostgreSQL', ['--project', 'integration', ...extra], { env: { ...process.env, TEST_DATABASE_URL: pg.url }, log });
  } finally {
    pg.stop();
  }
}

let failed = 0;
const onlySome = args.some((a) => a.startsWith('--project') || !a.startsWith('-'));
if (onlySome) {
  // Some projects or files: one pass on the embedded defaults, and the integration tier again on
  // PostgreSQL only when asked (TEST_POSTGRES=1).
  failed |= await vitest('embedded PGlite', args);
  if (process.env.TEST_POSTGRES === '1') failed |= await postgresPass(args);
} else {
  // Everything, in two lanes once the fast tiers are done. The unit and browser tiers run first and
  // alone: their event-loop and frame-timing checks compare against this machine's quiet. Then the
  // end-to-end tier (Chromium and one server at a time) runs beside the integration tier, on
  // embedded PGlite and then on a real PostgreSQL (a server and ffmpeg at a time): each lane leaves
  // most of a core idle on its own (the serial run used 1.2 of 2 cores, 33-36 min).
  failed |= await vitest('unit and browser', ['--project', 'unit', '--project', 'browser', ...args]);
  const laneLog = path.join(os.tmpdir(), `clipseek-integration-lane-${process.pid}.log`);
  fs.writeFileSync(laneLog, '');
  console.log(`\n== end-to-end tests here; integration tests beside them (embedded PGlite, then PostgreSQL), their output after ==`);
  const [e2e, integration] = await Promise.all([
    vitest('end-to-end', ['--project', 'e2e', ...args]),
    (async () =>
      (await vitest('embedded PGlite', ['--project', 'integration', ...args], { log: laneLog })) |
      (await postgresPass([...args, ...EMBEDDED_ONLY.flatMap((f) => ['--exclude', f])], laneLog)))(),
  ]);
  failed |= e2e | integration;
  console.log('\n== integration tests (embedded PGlite, then PostgreSQL) ==');
  process.stdout.write(fs.readFileSync(laneLog));
  fs.rmSync(laneLog, { force: true });
}
if (failed && !ownReporter) recapFailures();
process.exit(failed ? 1 : 0);

/** Lists every failed test (and file that failed outside a test) of every pass, with its first error line. */
function recapFailures() {
  console.log('\n== what failed ==');
  for (const { label, report } of reports) {
    let json;
    try {
      json = JSON.parse(fs.readFileSync(report, 'utf8'));
    } catch {
      console.log(`${label}: the pass ended without its report (it crashed or was stopped)`);
      continue;
    }
    for (const file of json.testResults ?? []) {
      const name = path.relative(root, file.name);
      const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of tests) console.log(`${label}: ${name} > ${t.fullName}\n    ${firstLine(t.failureMessages?.[0])}`);
      if (!tests.length && file.status === 'failed') console.log(`${label}: ${name}\n    ${firstLine(file.message)}`);
    }
    fs.rmSync(report, { force: true });
  }
}

function firstLine(text) {
  return (text ?? '').split('\n').find((l) => l.trim()) ?? '(no message)';
}

function pgVersion() {
  return fs.readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a))[0];
}

function ensurePgvector() {
  const v = pgVersion();
  if (fs.existsSync(`/usr/share/postgresql/${v}/extension/vector.control`)) return;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    console.error(
      `pgvector is missing for PostgreSQL ${v}: build it from Debian's pgvector source package (make && sudo make install), then run npm test again.`,
    );
    process.exit(1);
  }
  console.log(`Building pgvector for PostgreSQL ${v} from Debian's source package...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const srcList = '/etc/apt/sources.list.d/clipseek-pgvector-src.sources';
  fs.writeFileSync(
    srcList,
    'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n',
  );
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'pgvector-'));
  const steps = [
    ['apt-get', ['install', '-y', '-qq', '--no-install-recommends', `postgresql-server-dev-${v}`, 'build-essential', 'dpkg-dev'], root],
    ['apt-get', ['update', '-qq'], root],
    ['apt-get', ['source', '-qq', 'pgvector'], work],
  ];
  for (const [cmd, a, cwd] of steps) {
    if (run(cmd, a, { env, cwd }) !== 0) {
      console.error(
        `Could not fetch pgvector's source (${cmd} ${a.join(' ')}): install pgvector for PostgreSQL ${v} and run npm test again.`,
      );
      process.exit(1);
    }
  }
  const dir = path.join(
    work,
    fs.readdirSync(work).find((d) => d.startsWith('pgvector-') && fs.statSync(path.join(work, d)).isDirectory()),
  );
  const pgConfig = `PG_CONFIG=/usr/lib/postgresql/${v}/bin/pg_config`;
  if (run('make', ['-s', pgConfig, 'OPTFLAGS='], { cwd: dir }) !== 0 || run('make', ['-s', 'install', pgConfig], { cwd: dir }) !== 0) {
    console.error('Building pgvector failed: see the output above.');
    process.exit(1);
  }
  fs.rmSync(srcList, { force: true });
  fs.rmSync(work, { recursive: true, force: true });
}

function startPostgres() {
  const bin = path.join('/usr/lib/postgresql', pgVersion(), 'bin');
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
