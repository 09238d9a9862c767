import { argon2Hasher } from '../../adapters/security/passwords';
import type { Platform } from '../../platform';
import type { ServerModule } from '../module';
import { SupportRepository } from '../support/support.repository';
import { accountCleanupJob } from './accountCleanup.job';
import { accountRoutes } from './account.routes';
import { AccountService, type UserCreatedHook } from './account.service';
import { CodeRepository } from './code.repository';
import { MomentTrimsRepository } from './momentTrims.repository';
import { MomentTrimsService } from './momentTrims.service';
import { RateRepository } from './rate.repository';
import { UserRepository } from './user.repository';

/** Accounts: sign-up and sign-in, verification and reset codes, rate limits, settings and moment trims. */
export function accountsModule(p: Platform) {
  const users = new UserRepository(p.db);
  const rates = new RateRepository(p.db);
  /** What else happens when an account is created (other modules add theirs: the sign-up bonus, the first library). */
  const onUserCreated: UserCreatedHook[] = [];
  const accounts = new AccountService({
    users,
    codes: new CodeRepository(p.db),
    rates,
    support: new SupportRepository(p.db),
    hasher: argon2Hasher,
    tokens: p.tokens,
    mailer: p.mailer,
    appUrl: () => p.config.appUrl,
    intercomSecret: p.config.intercomSecret,
    onUserCreated,
  });
  const trims = new MomentTrimsService(new MomentTrimsRepository(p.db));
  return {
    accounts,
    users,
    rates,
    onUserCreated,
    module: {
      routes: (app) => accountRoutes(app, accounts, trims),
      jobs: [accountCleanupJob(accounts)],
    } satisfies ServerModule,
  };
}
