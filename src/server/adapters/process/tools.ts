import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import { PassThrough, type Readable } from 'node:stream';

/**
 * Child processes (ffmpeg, ffprobe, pocketsphinx, yt-dlp) are started by a small helper process
 * (spawner.child.mjs) while the server runs. fork() copies the parent's page tables: measured
 * 80-200 ms a spawn in a Node process holding 1-2 GB, during which the event loop stands still, and
 * the server spawns a dozen tools for each media it indexes (4.6 s of a loaded server's main thread
 * in `ChildProcess.spawn`, tests/bench/load.bench.ts with LOAD_PROFILE). Without the helper (tests
 * of single adapters, or if it died) tools are spawned directly, with the same interface.
 */
export interface ToolOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Its own process group (killed as a whole). */
  detached?: boolean;
  /** Kills the tool (SIGTERM) and fails it with an AbortError. */
  signal?: AbortSignal;
  /** Linux nice value (0..19) for background work, so requests get the CPU first (see BACKGROUND). */
  nice?: number;
  /** Linux SCHED_IDLE (through util-linux's chrt): runs only on CPU time nothing else wants. */
  idle?: boolean;
}

/**
 * How background work is scheduled. Requests (searches, pages, uploads) run at the normal priority
 * and take the CPU whenever they want it; renders and indexing run under SCHED_IDLE, so they use
 * every cycle the requests leave and never slow them (at nice 15 a render's six ffmpeg threads still
 * took 15 % of the API thread's core under load: tests/bench/load.bench.ts, searches p95 535-588 ms
 * against 428-477 ms under SCHED_IDLE, the renders 8.6 -> 11.5 s). The nice values order the two
 * where SCHED_IDLE is not available.
 */
export const BACKGROUND = {
  render: { nice: 15, idle: true },
  ingest: { nice: 19, idle: true },
  /**
   * Pictures made inside a request (a search card's still, a photo's picture): someone waits for
   * them, so not SCHED_IDLE (indexing would starve them), but below the requests themselves.
   */
  delivery: { nice: 10, idle: false },
} as const;

/** util-linux's chrt, which sets a scheduling policy (Linux only). */
const CHRT = process.platform === 'linux' ? ['/usr/bin/chrt', '/bin/chrt'].find((p) => fs.existsSync(p)) : undefined;

let backgroundIdle = true;
/** Whether `idle` tools and threads really get SCHED_IDLE in this process (config BACKGROUND_IDLE). */
export function setBackgroundIdle(on: boolean) {
  backgroundIdle = on;
}
/** True when background work here runs under SCHED_IDLE. */
export const backgroundIsIdle = () => backgroundIdle && !!CHRT;

/** The command line that starts `cmd` under `opts`' scheduling policy. */
function scheduled(cmd: string, args: string[], opts: ToolOptions): [string, string[]] {
  return opts.idle && backgroundIsIdle() ? [CHRT!, ['--idle', '0', cmd, ...args]] : [cmd, args];
}

/**
 * Puts the calling thread (and the threads it starts later) under SCHED_IDLE, as a background
 * worker thread's first step. False when that is not possible here.
 */
export function idleThisThread(): boolean {
  if (!CHRT) return false;
  try {
    const tid = /task\/(\d+)$/.exec(fs.readlinkSync('/proc/thread-self'))?.[1];
    if (!tid) return false;
    execFileSync(CHRT, ['--idle', '-p', '0', tid], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The part of ChildProcess the adapters use. */
export interface ToolProcess extends EventEmitter {
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly pid: number | undefined;
  kill(signal?: NodeJS.Signals): boolean;
}

type FromHelper =
  | { t: 'ready' }
  | { t: 'spawned'; id: number; pid: number }
  | { t: 'out'; id: number; fd: 1 | 2; data: Uint8Array }
  | { t: 'error'; id: number; message: string; code?: string }
  | { t: 'close'; id: number; code: number | null; signal: NodeJS.Signals | null };

let helper: ChildProcess | null = null;
let users = 0;
let nextId = 1;
const remote = new Map<number, RemoteTool>();

/** Starts the helper (once per process; each call needs its `stopToolSpawner`). */
export async function startToolSpawner(): Promise<void> {
  users++;
  if (helper) return;
  const child = fork(new URL('./spawner.child.mjs', import.meta.url), [], {
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the tool spawner exited (${code})`)));
  }).catch((err: unknown) => {
    child.kill('SIGKILL');
    users--;
    throw err;
  });
  child.on('message', (m: FromHelper) => (m.t === 'ready' ? undefined : remote.get(m.id)?.receive(m)));
  child.on('exit', () => {
    if (helper === child) helper = null;
    for (const tool of remote.values()) tool.receive({ t: 'close', id: tool.id, code: null, signal: 'SIGKILL' });
  });
  child.unref();
  (child as unknown as { channel?: { unref(): void } }).channel?.unref();
  helper = child;
}

/** The spawner's pid while it runs (benchmarks read the CPU time of the tools it started). */
export const toolSpawnerPid = (): number | null => helper?.pid ?? null;

/** Stops the helper when its last user stops; its tools still running are killed. */
export function stopToolSpawner() {
  users = Math.max(0, users - 1);
  if (users > 0 || !helper) return;
  const h = helper;
  helper = null;
  h.disconnect();
}

/** Starts a tool with piped stdout and stderr, like `spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })`. */
export function spawnTool(cmd: string, args: string[], opts: ToolOptions = {}): ToolProcess {
  if (helper?.connected) return new RemoteTool(helper, cmd, args, opts);
  const [file, argv] = scheduled(cmd, args, opts);
  const child = spawn(file, argv, {
    cwd: opts.cwd,
    env: opts.env,
    detached: opts.detached,
    signal: opts.signal,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (opts.nice && child.pid)
    try {
      os.setPriority(child.pid, opts.nice);
    } catch {
      // not permitted: it runs at our priority
    }
  return child as unknown as ToolProcess;
}

export interface ExecError extends Error {
  code?: number | string | null;
  stdout?: string;
  stderr?: string;
}

/**
 * Runs a tool to the end and gives its output, like promisified `execFile`: fails with `stderr` and
 * the exit `code` on the error, or after `timeout` ms (killed) or `maxBuffer` bytes of output.
 */
export function execTool(
  cmd: string,
  args: string[],
  opts: ToolOptions & { timeout?: number; maxBuffer?: number; encoding: 'buffer' },
): Promise<{ stdout: Buffer; stderr: string }>;
export function execTool(
  cmd: string,
  args: string[],
  opts?: ToolOptions & { timeout?: number; maxBuffer?: number; encoding?: 'utf8' },
): Promise<{ stdout: string; stderr: string }>;
export function execTool(
  cmd: string,
  args: string[],
  opts: ToolOptions & { timeout?: number; maxBuffer?: number; encoding?: 'utf8' | 'buffer' } = {},
): Promise<{ stdout: string | Buffer; stderr: string }> {
  const maxBuffer = opts.maxBuffer ?? 1024 * 1024;
  return new Promise((resolve, reject) => {
    const p = spawnTool(cmd, args, opts);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let failure: string | null = null;
    const stop = (why: string) => {
      failure ??= why;
      p.kill('SIGKILL');
    };
    const timer = opts.timeout ? setTimeout(() => stop(`timed out after ${opts.timeout} ms`), opts.timeout) : null;
    const collect = (into: Buffer[]) => (d: Buffer) => {
      size += d.length;
      if (size > maxBuffer) stop('maxBuffer exceeded');
      else into.push(d);
    };
    p.stdout.on('data', collect(out));
    p.stderr.on('data', collect(err));
    p.on('error', (e: Error) => {
      failure ??= e.message;
    });
    p.on('close', (code: number | null) => {
      if (timer) clearTimeout(timer);
      const stdout = opts.encoding === 'buffer' ? Buffer.concat(out) : Buffer.concat(out).toString('utf8');
      const stderr = Buffer.concat(err).toString('utf8');
      if (code === 0 && !failure) return resolve({ stdout, stderr });
      reject(
        Object.assign(new Error(`${cmd} failed (${failure ?? `exit ${code}`}): ${stderr.trim().split('\n').slice(-3).join(' ')}`), {
          code,
          stdout: typeof stdout === 'string' ? stdout : '',
          stderr,
        }) satisfies ExecError,
      );
    });
  });
}

/** A tool the helper runs: output arrives as messages, kills go back as messages. */
class RemoteTool extends EventEmitter implements ToolProcess {
  readonly id = nextId++;
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  pid: number | undefined;
  private done = false;

  constructor(
    private readonly helper: ChildProcess,
    cmd: string,
    args: string[],
    opts: ToolOptions,
  ) {
    super();
    remote.set(this.id, this);
    const [file, argv] = scheduled(cmd, args, opts);
    helper.send({
      t: 'spawn',
      id: this.id,
      cmd: file,
      args: argv,
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: !!opts.detached,
      nice: opts.nice ?? 0,
    });
    const signal = opts.signal;
    if (signal) {
      const abort = () => {
        this.kill('SIGTERM');
        queueMicrotask(() =>
          this.emit('error', Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' })),
        );
      };
      if (signal.aborted) abort();
      else {
        signal.addEventListener('abort', abort, { once: true });
        this.once('close', () => signal.removeEventListener('abort', abort));
      }
    }
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): boolean {
    if (this.done || !this.helper.connected) return false;
    this.helper.send({ t: 'kill', id: this.id, signal });
    return true;
  }

  receive(m: Exclude<FromHelper, { t: 'ready' }>) {
    if (this.done) return;
    if (m.t === 'spawned') {
      this.pid = m.pid;
      this.emit('spawn');
    } else if (m.t === 'out') {
      (m.fd === 1 ? this.stdout : this.stderr).write(Buffer.from(m.data.buffer, m.data.byteOffset, m.data.byteLength));
    } else if (m.t === 'error') {
      this.emit('error', Object.assign(new Error(m.message), { code: m.code }));
    } else if (m.t === 'close') {
      this.done = true;
      remote.delete(this.id);
      this.stdout.end();
      this.stderr.end();
      // After the streams have given out what they hold, as a ChildProcess's 'close' comes after its stdio's.
      setImmediate(() => {
        this.emit('exit', m.code, m.signal);
        this.emit('close', m.code, m.signal);
      });
    }
  }
}
