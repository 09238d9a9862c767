import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { registerJobs, WOKEN_POLL_SECONDS } from './registry';

/** The parts of pg-boss registerJobs uses, recording the worker callbacks it is given. */
function fakeBoss() {
  const workers = new Map<string, (batch: PgBoss.Job<object>[]) => Promise<unknown>>();
  const options = new Map<string, PgBoss.WorkOptions>();
  const notified: string[] = [];
  const boss = {
    notifyWorker: (id: string) => notified.push(id),
    createQueue: () => Promise.resolve(),
    schedule: () => Promise.resolve(),
    unschedule: () => Promise.resolve(),
    work: (name: string, opts: PgBoss.WorkOptions, callback: (batch: PgBoss.Job<object>[]) => Promise<unknown>) => {
      workers.set(name, callback);
      options.set(name, opts);
      return Promise.resolve(name);
    },
  };
  return { boss: boss as unknown as PgBoss, workers, options, notified };
}

const job = (id: string) => ({ id, name: 'slow', data: {} }) as PgBoss.Job<object>;

describe('job registry', () => {
  it('refuses two handlers for one job name', async () => {
    const { boss } = fakeBoss();
    const handler = () => Promise.resolve();
    await expect(
      registerJobs(
        boss,
        [
          { name: 'a', handler },
          { name: 'a', handler },
        ],
        true,
      ),
    ).rejects.toThrow('Job a has more than one handler');
  });

  it('drain waits for handlers still running (pg-boss records their outcome afterwards), up to its timeout', async () => {
    const { boss, workers } = fakeBoss();
    const finished: string[] = [];
    const { drain } = await registerJobs(
      boss,
      [
        {
          name: 'slow',
          handler: async (_data, j) => {
            await new Promise((resolve) => setTimeout(resolve, j.id === 'stuck' ? 10_000 : 80));
            if (j.id === 'failing') throw new Error('handler failed');
            finished.push(j.id);
          },
        },
      ],
      true,
    );
    const work = workers.get('slow')!;
    const ok = work([job('ok')]);
    const failing = work([job('failing')]).catch((e: Error) => e.message);
    const t0 = Date.now();
    await drain(5_000);
    expect(finished).toEqual(['ok']);
    expect(await failing).toBe('handler failed');
    await ok;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(60);
    // A handler that outlives the timeout does not hold the shutdown.
    void work([job('stuck')]);
    const t1 = Date.now();
    await drain(100);
    expect(Date.now() - t1).toBeLessThan(1_000);
  });

  it('polls seldom where every job wakes its workers, and a worker looks again as soon as a batch is done', async () => {
    const jobs = [
      { name: 'fast', handler: () => Promise.resolve(), workOptions: { pollingIntervalSeconds: 0.5 } },
      { name: 'broken', handler: () => Promise.reject(new Error('no')) },
    ];
    const other = fakeBoss();
    await registerJobs(other.boss, jobs, true);
    expect(other.options.get('fast')!.pollingIntervalSeconds).toBe(0.5);
    expect(other.options.get('broken')!.pollingIntervalSeconds).toBe(2);

    const { boss, workers, options, notified } = fakeBoss();
    const { wake } = await registerJobs(boss, jobs, true, null, true);
    expect(options.get('fast')!.pollingIntervalSeconds).toBe(WOKEN_POLL_SECONDS);
    expect(options.get('broken')!.pollingIntervalSeconds).toBe(WOKEN_POLL_SECONDS);
    expect(notified).toEqual([]);
    await workers.get('fast')!([job('a')]);
    await workers.get('broken')!([job('b')]).catch(() => undefined);
    expect(notified).toEqual(['fast', 'broken']); // the fake's worker ids are the queue names
    wake('fast');
    expect(notified).toEqual(['fast', 'broken', 'fast']);
  });
});
