import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { ServerModule } from '../module';
import { adminRoutes } from './admin.routes';

/** Support staff: impersonating a user through the admin key (`npm run admin`). */
export function supportModule(p: Platform, accounts: AccountService): ServerModule {
  return { routes: (app) => adminRoutes(app, accounts, p.adminKey, () => p.config.appUrl) };
}
