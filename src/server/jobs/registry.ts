import type PgBoss from 'pg-boss';
import type { JobLeases } from './leases';

/** A named job type with exactly one handler. Handlers must be idempotent: a job may run again after a crash. */
export interface JobDefinition<T extends object = object> {
  name: string;
  handler: (data: T, job: PgBoss.Job<T>) => Promise<void>;
  /** Optional cron schedule (pg-boss syntax) for recurring maintenance. */
  cron?: string;
  options?: PgBoss.Queue;
  workOptions?: PgBoss.WorkOptions;
  /** Handlers of this job running at once in this process (pg-boss 10 has one per `work` call). */
  workers?: number;
  /** A long job run under a lease (jobs/leases.ts): handed to another worker when this one dies. */
  leased?: boolean;
}

/**
 * How often a worker looks for jobs when every job is sent by this process (embedded PGlite), which
 * wakes the queue's workers as it sends: polling then only finds retries, schedules and expired
 * jobs. Polling at each queue's own 0.5-2 s, an idle server's 20 workers cost 118 ms of CPU a second
 * (top: 12 % of the main thread, 6 % of PGlite's) and a poll got in the way of most searches; at
 * 5 s, 42-50 ms.
 */
export const WOKEN_POLL_SECONDS = 5;

/**
 * Checks that every job name has exactly one handler, then registers the queues (and their workers
 * when `runWorkers`). `drain` waits for handlers still running after `boss.stop()`: pg-boss stops
 * waiting after its timeout and records a late handler's outcome without awaiting it, so the
 * database must stay open until those calls are made. `wokenOnSend`: every job is sent through this
 * process's `wake`, so workers poll only every WOKEN_POLL_SECONDS.
 */
export async function registerJobs(
  boss: PgBoss,
  jobs: JobDefinition[],
  runWorkers: boolean,
  leases: JobLeases | null = null,
  wokenOnSend = false,
): Promise<{ drain(timeoutMs: number): Promise<void>; wake(name: string): void }> {
  const poll = wokenOnSend ? { pollingIntervalSeconds: WOKEN_POLL_SECONDS } : {};
  const running = new Set<Promise<unknown>>();
  const workerIds = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const job of jobs) {
    if (seen.has(job.name)) throw new Error(`Job ${job.name} has more than one handler`);
    seen.add(job.name);
  }
  for (const job of jobs) {
    await boss.createQueue(job.name, { name: job.name, ...(job.options ?? {}) });
    if (job.cron) await boss.schedule(job.name, job.cron);
    else await boss.unschedule(job.name).catch(() => undefined);
    for (let w = 0; runWorkers && w < (job.workers ?? 1); w++) {
      const worker: { id?: string } = {};
      worker.id = await boss.work<object>(job.name, { pollingIntervalSeconds: 2, ...(job.workOptions ?? {}), ...poll }, (batch) => {
        const run = (async () => {
          try {
            for (const j of batch) {
              if (leases && job.leased) await leases.hold(job.name, j.id, () => job.handler(j.data, j));
              else await job.handler(j.data, j);
            }
          } finally {
            // Fetch again as soon as this batch is recorded: queued jobs do not wait for the next poll.
            if (worker.id) boss.notifyWorker(worker.id);
          }
        })();
        running.add(run);
        void run.catch(() => undefined).finally(() => running.delete(run));
        return run;
      });
      workerIds.set(job.name, [...(workerIds.get(job.name) ?? []), worker.id]);
    }
  }
  return {
    /** A job was just queued on `name`: this process's workers of it fetch now instead of at their next poll. */
    wake(name: string) {
      for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
    },
    async drain(timeoutMs: number) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      await Promise.race([Promise.allSettled([...running]), timeout]);
      clearTimeout(timer);
      // pg-boss records the outcome in the continuation after the handler settles: let it be sent.
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
  };
}

/**
 * In embedded mode this process is the only worker (the data-directory lock guarantees it), so a
 * job still 'active' at boot was cut off by a crash: hand it back for a retry now instead of
 * waiting for its expiry. (With PostgreSQL and several workers, expiry does this job.)
 */
export async function requeueOrphanedJobs(executeSql: (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>, names: string[]) {
  const r = await executeSql(
    `update pgboss.job set state = 'retry', start_after = now() where state = 'active' and name = any($1::text[]) returning id`,
    [names],
  );
  return r.rows.length;
}
