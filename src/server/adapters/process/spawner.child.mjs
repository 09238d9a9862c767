// The tool spawner (see tools.ts): a small process that starts the server's child processes for it
// and relays their output. It holds no memory to speak of, so its fork() is cheap, where the
// server's stalls its event loop. When the server goes away, so do the tools it started.
import { spawn } from 'node:child_process';
import os from 'node:os';

const kids = new Map();
const send = (m) => process.connected && process.send(m);

process.on('message', (m) => {
  if (m.t === 'spawn') {
    const { id } = m;
    let child;
    try {
      child = spawn(m.cmd, m.args, { cwd: m.cwd, env: m.env, detached: m.detached, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      send({ t: 'error', id, message: e.message, code: e.code });
      send({ t: 'close', id, code: null, signal: null });
      return;
    }
    kids.set(id, { child, detached: !!m.detached });
    child.on('spawn', () => {
      if (m.nice)
        try {
          os.setPriority(child.pid, m.nice);
        } catch {
          // not permitted: it runs at our priority
        }
      send({ t: 'spawned', id, pid: child.pid });
    });
    child.stdout.on('data', (data) => send({ t: 'out', id, fd: 1, data }));
    child.stderr.on('data', (data) => send({ t: 'out', id, fd: 2, data }));
    child.on('error', (e) => send({ t: 'error', id, message: e.message, code: e.code }));
    child.on('close', (code, signal) => {
      kids.delete(id);
      send({ t: 'close', id, code, signal });
    });
  } else if (m.t === 'kill') {
    const k = kids.get(m.id);
    if (!k) return;
    try {
      if (k.detached && k.child.pid) process.kill(-k.child.pid, m.signal);
      else k.child.kill(m.signal);
    } catch {
      // already gone
    }
  }
});

process.on('disconnect', () => {
  for (const { child, detached } of kids.values())
    try {
      if (detached && child.pid) process.kill(-child.pid, 'SIGKILL');
      else child.kill('SIGKILL');
    } catch {
      // already gone
    }
  process.exit(0);
});

send({ t: 'ready' });
