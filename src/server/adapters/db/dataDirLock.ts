import fs from 'node:fs';
import path from 'node:path';

/** Guards a data directory so two processes never open it at once. Stale locks (dead pid) are taken over. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`The data directory ${dataDir} is in use by process ${pid}. Stop it first, or set DATA_DIR to another folder.`);
  }
}

/**
 * When the process `pid` started (clock ticks since boot, /proc/<pid>/stat field 22) and on which
 * boot: with the pid, this names one process for good. Null where /proc is not there (not Linux).
 */
export function processIdentity(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after it.
    const startTicks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return startTicks ? `${boot}:${startTicks}` : null;
  } catch {
    return null;
  }
}

/**
 * When process `pid` started, from /proc (its start in clock ticks after boot, plus the boot time);
 * null where /proc is not there. Linux reports ticks in USER_HZ, 100 on every mainstream platform.
 */
export function processStartedAt(pid: number): Date | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const btime = Number(/^btime (\d+)$/m.exec(fs.readFileSync('/proc/stat', 'utf8'))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(btime) ? new Date(btime * 1000 + ticks * 10) : null;
  } catch {
    return null;
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The live process holding the lock, or null when the lock is stale. A pid alone is not enough:
 * after a crash (SIGKILL, OOM, power cut) the dead server's pid is often reused, in a container
 * especially, by an unrelated process, and the data directory then refused to start until someone
 * deleted the lock by hand. So the lock also records the holder's start time and boot, and a
 * live pid that started at another time, or after the lock was written, is not the holder.
 */
export function readLockOwner(dataDir: string): number | null {
  let text: string;
  let written: Date;
  try {
    const file = path.join(dataDir, 'clipseek.lock');
    written = fs.statSync(file).mtime;
    text = fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
  let pid: number;
  let identity: string | null = null;
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; identity?: unknown } | number;
    pid = typeof parsed === 'number' ? parsed : Number(parsed.pid);
    if (typeof parsed === 'object' && typeof parsed.identity === 'string') identity = parsed.identity;
  } catch {
    return null; // a lock cut off mid-write by a crash: nobody holds it
  }
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  if (identity !== null) {
    const now = processIdentity(pid);
    if (now !== null && now !== identity) return null;
  }
  // The holder wrote the lock after it started: a process started later only reuses the pid. (This
  // also judges old pid-only locks; the second of slack covers clock granularity.)
  const started = processStartedAt(pid);
  if (started && started.getTime() > written.getTime() + 1000) return null;
  return pid;
}

export function acquireDataDirLock(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'clipseek.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify({ pid: process.pid, identity: processIdentity(process.pid) }), { flag: 'wx' });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if ((JSON.parse(fs.readFileSync(file, 'utf8')) as { pid: number }).pid === process.pid) fs.unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readLockOwner(dataDir);
      if (owner !== null && owner !== process.pid) throw new DataDirLockedError(dataDir, owner);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock on ${dataDir}`);
}
