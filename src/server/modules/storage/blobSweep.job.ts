import type { BlobSweepService } from './blobSweep.service';
import { defineCronJob, type JobDefinition } from '../../jobs/registry';

/** Hourly: removes blobs no row refers to and temp leftovers, once older than BLOB_SWEEP_GRACE_MS. Idempotent. */
export const blobSweepJob = (sweeper: BlobSweepService): JobDefinition =>
  defineCronJob({
    name: 'blobs.sweep',
    cron: '41 * * * *',
    handler: async () => void (await sweeper.sweep()),
  });
