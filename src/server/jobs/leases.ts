import os from 'node:os';

type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: unknown[] }>;

/** How long a worker may stay silent before its long jobs are handed to another (JOB_LEASE_TTL_MS). */
export const JOB_LEASE_TTL_MS = 60_000;

/**
 * Leases on long jobs, for several worker processes on one PostgreSQL. pg-boss 10 has no heartbeat:
 * a job whose worker was killed stays 'active' until its expiry (30 minutes for ingest) before
 * anyone retries it. Here each worker records the jobs it runs (`job_leases`) and renews them every
 * ttl/4; every worker, on the same tick, hands back the jobs whose lease went stale (their worker is
 * gone) as a retry. pg-boss counts the retry when a worker takes the job again, so a job that kills
 * every worker that takes it ends failed at its retry limit instead of looping (its media then
 * stays 'processing' until the user retries it). The job then resumes where its stages say (ingest
 * records each finished stage; renders start again and charge once).
 *
 * A worker alive but silent longer than the ttl (a stalled event loop) would lose its jobs; the
 * handlers' work runs in child processes and worker threads, so the default of 60 s is far above
 * any stall seen. Embedded mode does not use leases: one process holds the data directory and
 * hands back its own cut-off jobs at boot (requeueOrphanedJobs).
 */
export class JobLeases {
  readonly workerId = `${os.hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly executeSql: ExecuteSql,
    private readonly ttlMs: number = JOB_LEASE_TTL_MS,
    private readonly onReclaimed: (jobs: { id: string; queue: string }[]) => void = () => undefined,
  ) {}

  /** Runs `work` for job `jobId` of `queue` under a lease held by this process. */
  async hold<T>(queue: string, jobId: string, work: () => Promise<T>): Promise<T> {
    await this.executeSql(
      `insert into job_leases (job_id, queue, worker_id, renewed_at) values ($1, $2, $3, now())
       on conflict (job_id) do update set queue = excluded.queue, worker_id = excluded.worker_id, renewed_at = now()`,
      [jobId, queue, this.workerId],
    );
    try {
      return await work();
    } finally {
      await this.executeSql(`delete from job_leases where job_id = $1 and worker_id = $2`, [jobId, this.workerId]).catch(() => undefined);
    }
  }

  /** One tick: renew this worker's leases, then hand back the jobs of workers gone silent. */
  async tick(): Promise<{ id: string; queue: string }[]> {
    await this.executeSql(`update job_leases set renewed_at = now() where worker_id = $1`, [this.workerId]);
    const r = await this.executeSql(
      `with lost as (
         delete from job_leases where renewed_at < now() - ($1::double precision * interval '1 millisecond') returning job_id
       )
       update pgboss.job
          set state = case when retry_count < retry_limit then 'retry'::pgboss.job_state else 'failed'::pgboss.job_state end,
              start_after = now(),
              output = jsonb_build_object('message', 'its worker stopped answering')
        where id in (select job_id from lost) and state = 'active'
       returning id, name as queue`,
      [this.ttlMs],
    );
    const jobs = r.rows as { id: string; queue: string }[];
    if (jobs.length) this.onReclaimed(jobs);
    return jobs;
  }

  /** Renews and reclaims every ttl/4 until `stop`. */
  start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch(() => undefined), Math.max(250, Math.floor(this.ttlMs / 4)));
    this.timer.unref();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
