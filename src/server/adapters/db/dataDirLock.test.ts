import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from './dataDirLock';

describe('data directory lock', () => {
  it('refuses a directory held by a live process and takes over a stale lock', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    fs.writeFileSync(path.join(dir, 'clipseek.lock'), String(other.pid));
    try {
      expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    } finally {
      other.kill();
      await new Promise((r) => other.once('exit', r));
    }
    const release = acquireDataDirLock(dir);
    expect(fs.readFileSync(path.join(dir, 'clipseek.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'clipseek.lock'))).toBe(false);
  });
});
