import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { MODELS_DIR } from '../../fixtures/modelsDir';
import { JWT_SECRET } from './harness';
import { seedEmbeddedDatabase } from './pgTemplate';

export type LogLine = Record<string, unknown> & { msg?: string };

/** A server in its own process (`node --import tsx src/server/main.ts`), so a test can SIGKILL it. */
export interface SpawnedServer {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Every JSON line it printed on stdout (pino's log and the test-hold lines), in order. */
  lines: LogLine[];
  /** Resolves with the first line (already printed or still to come) that `match` accepts. */
  waitForLine(match: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGKILL: no shutdown code runs, as in a power cut or the OOM killer. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the graceful stop. */
  stop(): Promise<void>;
}

/** The environment every spawned server of a test shares (one DATA_DIR across restarts). */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  // No demo samples: their indexing would hold up the ingest worker for tens of seconds a sign-up.
  const noDemo = path.join(dataDir, 'no-demo');
  fs.mkdirSync(noDemo, { recursive: true });
  return {
    DEMO_DIR: noDemo,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    JWT_SECRET,
    WEB_DIR: path.join(dataDir, 'no-web'),
    MODELS_DIR,
    SIGNUP_BONUS_CREDITS: '50000',
    ...extra,
  };
}

/**
 * Starts the server and resolves once it listens: its `server.json` bridge names this child's pid
 * (after a kill the previous process's file is still there, naming a dead pid). A worker
 * (ROLE=worker) listens nowhere: it is ready once it logs 'worker ready' (its `url` is empty).
 */
export async function spawnServer(env: Record<string, string>, timeoutMs = 60_000): Promise<SpawnedServer> {
  const dataDir = env.DATA_DIR!;
  if (!env.DATABASE_URL) await seedEmbeddedDatabase(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/server/main.ts')], {
    // The parent's CLIPSEEK_TEST_HOLD must never leak into a restart that should run through.
    env: { ...process.env, CLIPSEEK_TEST_HOLD: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so a kill takes ffmpeg with it, as a crashed container or a systemd
    // stop would, and no tool outlives the test.
    detached: true,
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  readline.createInterface({ input: child.stdout! }).on('line', (text) => {
    if (!text.startsWith('{')) return;
    try {
      lines.push(JSON.parse(text) as LogLine);
    } catch {
      return;
    }
    waiters.forEach((w) => w());
  });
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      waiters.forEach((w) => w());
      resolve();
    }),
  );
  const bridge = path.join(dataDir, 'server.json');
  const deadline = Date.now() + timeoutMs;
  const worker = env.ROLE === 'worker';
  let url = '';
  while (!url && !(worker && lines.some((l) => l.msg === 'worker ready'))) {
    if (exited) throw new Error(`server exited before listening (code ${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`server did not start: ${stderr}`);
    }
    try {
      if (!worker) {
        const b = JSON.parse(fs.readFileSync(bridge, 'utf8')) as { pid: number; url: string };
        if (b.pid === child.pid) url = b.url;
      }
    } catch {
      /* not written yet */
    }
    if (!url) await new Promise((r) => setTimeout(r, 50));
  }
  const waitForLine = async (match: (l: LogLine) => boolean, ms = 60_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const hit = lines.find(match);
      if (hit) return hit;
      if (exited) throw new Error(`server exited while waiting for a log line: ${stderr}`);
      if (Date.now() > until)
        throw new Error(
          `no matching log line in ${ms} ms; the last ones: ${lines
            .slice(-8)
            .map((l) => JSON.stringify(l))
            .join('\n')}`,
        );
      await new Promise<void>((resolve) => {
        const done = () => {
          waiters.delete(done);
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(done, 250);
        waiters.add(done);
      });
    }
  };
  return {
    url,
    pid: child.pid!,
    child,
    lines,
    waitForLine,
    async kill() {
      if (!exited) process.kill(-child.pid!, 'SIGKILL');
      await exit;
    },
    async stop() {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}

/** The stages whose start a server logged for `mediaId`, in order. */
export const stagesStarted = (s: SpawnedServer, mediaId: string) =>
  s.lines.filter((l) => l.msg === 'ingest stage started' && l.mediaId === mediaId).map((l) => l.stage as string);
export const stagesDone = (s: SpawnedServer, mediaId: string) =>
  s.lines.filter((l) => l.msg === 'ingest stage done' && l.mediaId === mediaId).map((l) => l.stage as string);
