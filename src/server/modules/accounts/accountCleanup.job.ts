import type { AccountService } from './account.service';
import { defineCronJob, type JobDefinition } from '../../jobs/registry';

/** Hourly: drop long-expired email codes and old rate-limit events. Safe to run any number of times. */
export const accountCleanupJob = (accounts: AccountService): JobDefinition =>
  defineCronJob({
    name: 'accounts.cleanup',
    cron: '17 * * * *',
    handler: () => accounts.cleanup(),
  });
