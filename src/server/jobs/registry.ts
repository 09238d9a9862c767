import type PgBoss from 'pg-boss';
import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { JobLeases } from './leases';

/**
 * A job type as it is registered: a name with exactly one handler, which takes pg-boss's job as it
 * comes. Made by `defineJob` (its payload checked against its schema first) or `defineCronJob`.
 * Handlers must be idempotent: a job may run again after a crash.
 */
export interface JobDefinition {
  name: string;
  handler: (data: unknown, job: PgBoss.Job<unknown>) => Promise<void>;
  /** Optional cron schedule (pg-boss syntax) for recurring maintenance. */
  cron?: string;
  options?: PgBoss.Queue;
  workOptions?: PgBoss.WorkOptions;
  /** Handlers of this job running at once in this process (pg-boss 10 has one per `work` call). */
  workers?: number;
  /** A long job run under a lease (jobs/leases.ts): handed to another worker when this one dies. */
  leased?: boolean;
}

/** What a handler knows of the job it runs, besides its payload. */
export interface JobRun {
  id: string;
  /** Takes of this job before this one: 0 the first time, more on a retry (after a crash or a failure). Needs `includeMetadata`. */
  retryCount: number;
}

/** A job type whose payload is `Static<S>`: the handler gets it checked and typed. */
export interface TypedJob<S extends TSchema> extends Omit<JobDefinition, 'handler' | 'cron'> {
  /** The payload's shape, checked before the handler runs. */
  payload: S;
  handler: (data: Static<S>, run: JobRun) => Promise<void>;
}

/**
 * A job whose payload does not have its job type's shape: queued by an older or newer version, or
 * by hand. It fails at once, naming the job and what is wrong, instead of deep inside its handler.
 */
export class JobPayloadError extends Error {
  readonly code = 'job_payload_invalid';
  constructor(
    readonly jobName: string,
    readonly jobId: string,
    detail: string,
  ) {
    super(`Job ${jobName} (${jobId}) has a payload it cannot run: ${detail}`);
    this.name = 'JobPayloadError';
  }
}

/** The payload's first problem and what was given, short enough for a log line. */
function payloadProblem(schema: TSchema, data: unknown): string {
  const [error] = Value.Errors(schema, data);
  const where = error?.instancePath || 'the payload';
  const given = JSON.stringify(data) ?? String(data);
  return `${where} ${error?.message ?? 'does not match'} (got ${given.length > 200 ? `${given.slice(0, 200)}…` : given})`;
}

const runOf = (job: PgBoss.Job<unknown>): JobRun => ({
  id: job.id,
  retryCount: 'retryCount' in job && typeof job.retryCount === 'number' ? job.retryCount : 0,
});

/** A job type with a typed payload, checked against `payload` before the handler runs (JobPayloadError when it does not match). */
export function defineJob<S extends TSchema>({ payload, handler, ...settings }: TypedJob<S>): JobDefinition {
  return {
    ...settings,
    handler: async (data, job) => {
      if (!Value.Check(payload, data)) throw new JobPayloadError(settings.name, job.id, payloadProblem(payload, data));
      await handler(data, runOf(job));
    },
  };
}

/** A recurring job without a payload (pg-boss sends its schedule's jobs with none). */
export function defineCronJob({
  handler,
  ...settings
}: Omit<JobDefinition, 'handler' | 'cron'> & { cron: string; handler: () => Promise<void> }): JobDefinition {
  return { ...settings, handler: () => handler() };
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
      worker.id = await boss.work<unknown>(job.name, { pollingIntervalSeconds: 2, ...(job.workOptions ?? {}), ...poll }, (batch) => {
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
