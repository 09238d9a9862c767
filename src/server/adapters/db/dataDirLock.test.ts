import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError, processIdentity, processStartedAt } from './dataDirLock';

const holder = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'clipseek.lock'), 'utf8')) as { pid: number; identity: string };

describe('data directory lock', () => {
  it('refuses a directory held by a live process and takes over a stale lock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    fs.writeFileSync(path.join(dir, 'clipseek.lock'), JSON.stringify({ pid: other.pid, identity: processIdentity(other.pid!) }));
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
      // An old-style lock (a bare pid) of a live process is honoured too.
      fs.writeFileSync(path.join(dir, 'clipseek.lock'), String(other.pid));
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    const release = acquireDataDirLock(dir);
    expect(holder(dir).pid).toBe(process.pid);
    release();
    expect(fs.existsSync(path.join(dir, 'clipseek.lock'))).toBe(false);
  });

  it.skipIf(!processIdentity(process.pid))(
    'takes over a lock whose pid now belongs to another process (pid reuse after a crash)',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
      const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      try {
        // The dead holder had this pid but started at another time.
        fs.writeFileSync(path.join(dir, 'clipseek.lock'), JSON.stringify({ pid: other.pid, identity: 'another-boot:12345' }));
        const release = acquireDataDirLock(dir);
        expect(holder(dir)).toEqual({ pid: process.pid, identity: processIdentity(process.pid) });
        release();
        // A lock cut off while being written (empty) is stale as well.
        fs.writeFileSync(path.join(dir, 'clipseek.lock'), '');
        acquireDataDirLock(dir)();
      } finally {
        other.kill();
        await new Promise((r) => other.once('exit', r));
      }
    },
  );
});

describe('data directory lock of a crashed server whose pid was reused', () => {
  it.skipIf(!processStartedAt(process.pid))(
    'takes over an old-style (pid only) lock when that pid started after the lock was written',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
      const file = path.join(dir, 'clipseek.lock');
      const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
      try {
        fs.writeFileSync(file, String(other.pid));
        // Written a minute before that process started: it cannot be the holder.
        const before = new Date(processStartedAt(other.pid!)!.getTime() - 60_000);
        fs.utimesSync(file, before, before);
        const release = acquireDataDirLock(dir);
        expect(holder(dir).pid).toBe(process.pid);
        release();
      } finally {
        other.kill();
        await new Promise((r) => other.once('exit', r));
      }
    },
  );
});
