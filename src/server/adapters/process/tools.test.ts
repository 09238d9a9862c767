import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundIsIdle, execTool, spawnTool, startToolSpawner, stopToolSpawner, type ToolProcess } from './tools';
import { typicalHold } from '../../../../tests/fixtures/eventLoop';

const ended = (p: ToolProcess) => new Promise<number | null>((resolve) => p.on('close', (code: number | null) => resolve(code)));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const waitFor = async (ok: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!ok() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return ok();
};

describe('tools through the spawner', () => {
  beforeAll(() => startToolSpawner());
  afterAll(() => stopToolSpawner());

  it('relays stdout, stderr and the exit code, and gives the pid', async () => {
    const p = spawnTool('sh', ['-c', 'echo out; echo err >&2; exit 3']);
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    expect(await ended(p)).toBe(3);
    expect(out).toBe('out\n');
    expect(err).toBe('err\n');
    expect(p.pid).toBeGreaterThan(0);
  });

  it('runs a tool to the end like execFile: text or bytes, the stderr and code of a failure, a timeout', async () => {
    expect((await execTool('printf', ['a\\nb'])).stdout).toBe('a\nb');
    const bytes = (await execTool('head', ['-c', '300000', '/dev/zero'], { encoding: 'buffer' })).stdout;
    expect(bytes.length).toBe(300_000);
    await expect(execTool('sh', ['-c', 'echo broken >&2; exit 2'])).rejects.toMatchObject({ code: 2, stderr: 'broken\n' });
    const t = performance.now();
    await expect(execTool('sleep', ['10'], { timeout: 300 })).rejects.toThrow(/timed out/);
    expect(performance.now() - t).toBeLessThan(5000);
    await expect(execTool('/no/such/tool', [])).rejects.toThrow(/ENOENT/);
  });

  it('starts background tools at the nice value asked', async () => {
    const { stdout } = await execTool('sh', ['-c', 'sleep 0.3; cut -d" " -f19 /proc/$$/stat'], { nice: 10 });
    expect(stdout.trim()).toBe('10');
  });

  it.runIf(backgroundIsIdle())('starts idle tools under SCHED_IDLE, others under the normal policy', async () => {
    const policy = async (idle: boolean) => (await execTool('sh', ['-c', 'chrt -p $$'], { idle })).stdout;
    expect(await policy(true)).toMatch(/SCHED_IDLE/);
    expect(await policy(false)).toMatch(/SCHED_OTHER/);
  });

  it('kills on abort (an AbortError) and on kill()', async () => {
    const stop = new AbortController();
    const p = spawnTool('sleep', ['30'], { signal: stop.signal });
    const error = new Promise<Error>((resolve) => p.on('error', resolve));
    await waitFor(() => !!p.pid);
    stop.abort();
    expect((await error).name).toBe('AbortError');
    await ended(p);
    expect(await waitFor(() => !alive(p.pid!))).toBe(true);
    const q = spawnTool('sleep', ['30']);
    await waitFor(() => !!q.pid);
    q.kill('SIGKILL');
    await ended(q);
    expect(alive(q.pid!)).toBe(false);
  });

  it('does not hold the event loop of a big process the way spawning from it does', async () => {
    const ballast = Buffer.alloc(1024 * 1024 * 1024, 1); // a server holding its database and models
    const fiveSpawns = async () => {
      for (let i = 0; i < 5; i++) await ended(spawnTool('true', []));
    };
    const viaHelper = await typicalHold(fiveSpawns);
    stopToolSpawner(); // without the spawner, tools are spawned from this process
    const direct = await typicalHold(fiveSpawns);
    await startToolSpawner();
    console.log(
      `[timing] event loop held at most ${direct.toFixed(0)} ms spawning directly, ${viaHelper.toFixed(0)} ms through the spawner`,
    );
    expect(ballast[ballast.length - 1]).toBe(1);
    expect(viaHelper).toBeLessThan(direct / 2);
  }, 60_000);
});

describe('the spawner going away', () => {
  it('takes the tools it started with it', async () => {
    await startToolSpawner();
    const p = spawnTool('sleep', ['30']);
    await waitFor(() => !!p.pid);
    expect(alive(p.pid!)).toBe(true);
    const closed = ended(p);
    stopToolSpawner();
    expect(await waitFor(() => !alive(p.pid!))).toBe(true);
    await closed;
  });
});
