import { INGEST_JOB } from '../services/library.service';
import type { IngestService } from '../services/ingest.service';
import type { JobDefinition } from './registry';

/**
 * One job per media. The service records each finished stage, so a re-run (pg-boss retry, or the
 * job re-queued after a crash) resumes where it stopped.
 */
export const ingestJob = (ingest: IngestService): JobDefinition<{ mediaId: string }> => ({
  name: INGEST_JOB,
  options: { name: INGEST_JOB, retryLimit: 2, retryDelay: 5, expireInSeconds: 30 * 60 },
  workOptions: { batchSize: 1, pollingIntervalSeconds: 1 },
  leased: true,
  handler: ({ mediaId }) => ingest.run(mediaId),
});
