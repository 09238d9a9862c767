import type { JobDefinition } from '../jobs/registry';
import type { RegisterRoutes } from '../http/types';

/**
 * What a capability hands the server (main.ts composes them): its routes, its jobs (one handler per
 * job name), the job queues whose jobs are resumed after a crash of the embedded database's only
 * process, and work a worker does once at start (backfills, reopening what a crash cut off).
 */
export interface ServerModule {
  routes?: RegisterRoutes;
  jobs?: JobDefinition[];
  resumableQueues?: string[];
  /** Run once at start by every process that runs jobs, before the queue starts. */
  backfill?: () => Promise<void>;
  /** Run once at start by the embedded database's process, after the queue starts. */
  resume?: () => Promise<void>;
}
