import type PgBoss from 'pg-boss';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { defineCronJob, defineJob, JobPayloadError, registerJobs, WOKEN_POLL_SECONDS, type JobRun } from './registry';

/** The parts of pg-boss registerJobs uses, recording the worker callbacks it is given. */
function fakeBoss() {
  const workers = new Map<string, (batch: PgBoss.Job<unknown>[]) => Promise<unknown>>();
  const options = new Map<string, PgBoss.WorkOptions>();
  const notified: string[] = [];
  const boss = {
    notifyWorker: (id: string) => notified.push(id),
    createQueue: () => Promise.resolve(),
    schedule: () => Promise.resolve(),
    unschedule: () => Promise.resolve(),
    work: (name: string, opts: PgBoss.WorkOptions, callback: (batch: PgBoss.Job<unknown>[]) => Promise<unknown>) => {
      workers.set(name, callback);
      options.set(name, opts);
      return Promise.resolve(name);
    },
  };
  return { boss: boss as unknown as PgBoss, workers, options, notified };
}

const job = (id: string, data: unknown = {}, meta: object = {}) => ({ id, name: 'slow', data, ...meta }) as PgBoss.Job<unknown>;

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

  it('hands a typed job its payload once it has the shape, and fails a job without it at once, naming what is wrong', async () => {
    const seen: Array<{ data: { itemId: string; count: number }; run: JobRun }> = [];
    const typed = defineJob({
      name: 'items.count',
      payload: Type.Object({ itemId: Type.String({ format: 'uuid' }), count: Type.Integer({ minimum: 0 }) }),
      handler: async (data, run) => void seen.push({ data, run }),
    });
    const { boss, workers } = fakeBoss();
    await registerJobs(boss, [typed], true);
    const work = workers.get('items.count')!;
    const id = '00000000-0000-4000-8000-000000000001';
    await work([job('j1', { itemId: id, count: 2 }), job('j2', { itemId: id, count: 0, extra: true }, { retryCount: 1 })]);
    expect(seen).toEqual([
      { data: { itemId: id, count: 2 }, run: { id: 'j1', retryCount: 0 } },
      { data: { itemId: id, count: 0, extra: true }, run: { id: 'j2', retryCount: 1 } },
    ]);
    // An older version's payload, a wrong type, none at all: the handler never runs.
    const failure = (data: unknown) =>
      work([job('bad', data)]).then(
        () => null,
        (e: unknown) => e,
      );
    const missing = await failure({ item: id, count: 1 });
    expect(missing).toBeInstanceOf(JobPayloadError);
    expect((missing as JobPayloadError).code).toBe('job_payload_invalid');
    expect((missing as Error).message).toBe(
      `Job items.count (bad) has a payload it cannot run: the payload must have required properties itemId (got {"item":"${id}","count":1})`,
    );
    expect(((await failure({ itemId: 'x', count: 1 })) as Error).message).toMatch(
      /^Job items\.count \(bad\) .*: \/itemId must match format "uuid"/,
    );
    expect(((await failure({ itemId: id, count: -1 })) as Error).message).toMatch(/\/count must be >= 0 \(got /);
    expect(((await failure(null)) as Error).message).toMatch(/the payload must be object \(got null\)$/);
    expect(seen).toHaveLength(2);
  });

  it('runs a cron job without a payload', async () => {
    let runs = 0;
    const { boss, workers } = fakeBoss();
    await registerJobs(boss, [defineCronJob({ name: 'tidy', cron: '* * * * *', handler: async () => void runs++ })], true);
    await workers.get('tidy')!([job('c1', null)]);
    expect(runs).toBe(1);
  });
});
