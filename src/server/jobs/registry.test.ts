import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { registerJobs } from './registry';

/** The parts of pg-boss registerJobs uses, recording the worker callbacks it is given. */
function fakeBoss() {
  const workers = new Map<string, (batch: PgBoss.Job<object>[]) => Promise<unknown>>();
  const boss = {
    createQueue: () => Promise.resolve(),
    schedule: () => Promise.resolve(),
    unschedule: () => Promise.resolve(),
    work: (name: string, _options: object, callback: (batch: PgBoss.Job<object>[]) => Promise<unknown>) => {
      workers.set(name, callback);
      return Promise.resolve(name);
    },
  };
  return { boss: boss as unknown as PgBoss, workers };
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
});
