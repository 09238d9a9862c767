import type { FastifyInstance } from 'fastify';
import {
  API,
  externalBulkBodySchema,
  externalUrlBodySchema,
  folderParamsSchema,
  type ExternalBulkBody,
  type ExternalUrlBody,
} from '../../contract';
import type { AccountService } from '../services/account.service';
import type { ExternalService } from '../services/external.service';
import { requireAuth, sessionOf } from './auth';
import { ok, reply } from './envelope';

type FolderParams = { id: string; folderId: string };

/**
 * Link import (libraries spec section 7): link info (peek, unwind) and media added from links, one
 * or a batch. Each body and params is validated against its contract schema before the service runs.
 */
export function externalRoutes(app: FastifyInstance, accounts: AccountService, external: ExternalService) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;

  app.post<{ Body: ExternalUrlBody }>(API.externalPeek, { ...auth, schema: { body: externalUrlBodySchema } }, async (req, res) =>
    reply(req, res, ok(await external.peek(user(req), req.body.url))),
  );
  app.post<{ Body: ExternalUrlBody }>(API.externalUnwind, { ...auth, schema: { body: externalUrlBodySchema } }, async (req, res) =>
    reply(req, res, ok(await external.unwind(user(req), req.body.url))),
  );
  app.post<{ Params: FolderParams; Body: ExternalUrlBody }>(
    API.externalAdd(':id', ':folderId'),
    { ...auth, schema: { params: folderParamsSchema, body: externalUrlBodySchema } },
    async (req, res) =>
      reply(req, res, { data: await external.add(user(req), req.params.id, req.params.folderId, req.body.url), status: 201 }),
  );
  app.post<{ Params: FolderParams; Body: ExternalBulkBody }>(
    API.externalBulk(':id', ':folderId'),
    { ...auth, schema: { params: folderParamsSchema, body: externalBulkBodySchema } },
    async (req, res) =>
      reply(req, res, { data: await external.bulk(user(req), req.params.id, req.params.folderId, req.body), status: 201 }),
  );
}
