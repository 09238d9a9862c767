import type { UploadService } from './upload.service';
import { defineCronJob, type JobDefinition } from '../../jobs/registry';

/** Every 10 minutes: uploads whose part URLs expired unfinished become `empty` and free their bytes. */
export const uploadExpiryJob = (uploads: UploadService): JobDefinition =>
  defineCronJob({
    name: 'uploads.expire',
    cron: '*/10 * * * *',
    handler: () => uploads.expireStale(),
  });
