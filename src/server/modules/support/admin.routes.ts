import { timingSafeEqual } from 'node:crypto';
import { API, impersonateBodySchema, impersonateLink } from '../../../contract';
import type { App } from '../../http/types';
import { AppError } from '../../errors';
import type { AccountService } from '../accounts/account.service';
import { ok, reply } from '../../http/envelope';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The bridge `npm run admin` uses while this process holds the data directory: loopback only, and
 * keyed with a MAC of the server secret that only someone who can read DATA_DIR can compute.
 */
export function adminRoutes(app: App, accounts: AccountService, adminKey: string, appUrl: () => string) {
  app.post(API.adminImpersonate, { schema: { body: impersonateBodySchema } }, async (req, res) => {
    const given = Buffer.from(String(req.headers['x-admin-key'] ?? ''));
    const want = Buffer.from(adminKey);
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '') || given.length !== want.length || !timingSafeEqual(given, want))
      throw new AppError('not_found', 'Not found.');
    const r = await accounts.impersonate(req.body.email, req.body.by, req.body.minutes);
    return reply(
      req,
      res,
      ok({ token: r.token, link: impersonateLink(appUrl(), r.token), expiresAt: r.expiresAt.toISOString(), user: r.user }),
    );
  });
}
