import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { UserRepository } from '../accounts/user.repository';
import type { MediaRepository } from '../libraries/media.repository';
import type { ServerModule } from '../module';
import type { IngestBilling } from '../ports';
import { BillingRepository } from './billing.repository';
import { billingRoutes } from './billing.routes';
import { BillingService } from './billing.service';
import { loadCatalog } from './catalog';
import { LedgerRepository } from './ledger.repository';
import { LedgerService } from './ledger.service';
import { renewalJob } from './renewal.job';

/** A source of charges on their way (media being indexed, renders being made) for the billing info. */
export interface PendingCharges {
  chargesPending(userId: string): Promise<number>;
}

/**
 * Billing: the credit ledger, plans, top-ups and the payment provider. `credits` is the one credit
 * port the modules that charge (ingest, render, link import) are given.
 */
export function billingModule(p: Platform, d: { users: UserRepository; media: MediaRepository; pending: PendingCharges[] }) {
  const ledgerRepo = new LedgerRepository(p.db);
  const ledger = new LedgerService(ledgerRepo);
  const billing = new BillingService({
    repo: new BillingRepository(p.db),
    users: d.users,
    ledger,
    ledgerRepo,
    media: d.media,
    catalog: loadCatalog(p.config.billingProductsFile),
    provider: p.provider,
    appUrl: () => p.config.appUrl,
    allowedRedirectHosts: p.config.allowedRedirectHosts,
    signupBonus: { credits: p.config.signupBonusCredits, days: p.config.signupBonusDays },
    chargesPending: async (userId) => (await Promise.all(d.pending.map((s) => s.chargesPending(userId)))).reduce((a, b) => a + b, 0),
  });
  const credits: IngestBilling = {
    balance: (userId) => ledger.balance(userId),
    charge: async (userId, amount, key, reason) => void (await ledger.charge(userId, { amount, key, reason })),
  };
  return {
    billing,
    ledger,
    credits,
    module: (accounts: AccountService): ServerModule => ({
      routes: (app) => billingRoutes(app, accounts, billing, () => p.config.appUrl),
      jobs: [renewalJob(billing)],
    }),
  };
}
