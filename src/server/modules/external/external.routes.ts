import { API, externalBulkBodySchema, externalUrlBodySchema, folderParamsSchema } from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { ExternalService } from './external.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

/**
 * Link import (libraries spec section 7): link info (peek, unwind) and media added from links, one
 * or a batch. Bodies and params are contract/schemas/external.ts, checked before the service runs.
 */
export function externalRoutes(app: App, accounts: AccountService, external: ExternalService) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;

  app.post(API.externalPeek, { ...auth, schema: { body: externalUrlBodySchema } }, async (req, res) =>
    reply(req, res, ok(await external.peek(user(req), req.body.url))),
  );
  app.post(API.externalUnwind, { ...auth, schema: { body: externalUrlBodySchema } }, async (req, res) =>
    reply(req, res, ok(await external.unwind(user(req), req.body.url))),
  );
  app.post(
    API.externalAdd(':id', ':folderId'),
    { ...auth, schema: { params: folderParamsSchema, body: externalUrlBodySchema } },
    async (req, res) =>
      reply(req, res, { data: await external.add(user(req), req.params.id, req.params.folderId, req.body.url), status: 201 }),
  );
  app.post(
    API.externalBulk(':id', ':folderId'),
    { ...auth, schema: { params: folderParamsSchema, body: externalBulkBodySchema } },
    async (req, res) =>
      reply(req, res, { data: await external.bulk(user(req), req.params.id, req.params.folderId, req.body), status: 201 }),
  );
}
