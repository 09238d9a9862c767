import type { BillingService } from './billing.service';
import { defineCronJob, type JobDefinition } from '../../jobs/registry';

/** Every 5 minutes: renews local subscriptions whose term has ended. Idempotent (see BillingService.renewDue). */
export const renewalJob = (billing: BillingService): JobDefinition =>
  defineCronJob({
    name: 'billing.renew',
    cron: '*/5 * * * *',
    handler: async () => {
      await billing.renewDue();
    },
  });
