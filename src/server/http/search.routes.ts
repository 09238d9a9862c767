import type { FastifyInstance } from 'fastify';
import { API, SEARCH_DEFAULT_LIMIT, SEARCH_RESULT_TYPES, type SearchRequest, type SearchResultType } from '../../contract';
import type { AccountService } from '../services/account.service';
import type { SearchService } from '../services/search.service';
import { requireAuth, sessionOf } from './auth';
import { ok, reply } from './envelope';

const request = {
  type: 'object',
  properties: {
    text: { type: 'string', maxLength: 2000 },
    image: { type: 'string', maxLength: 22_000_000 },
    clipId: { type: 'string', maxLength: 200 },
    sample: { type: 'number' },
    mediaIds: { type: 'array', maxItems: 1000, items: { type: 'string', format: 'uuid' } },
  },
} as const;

const num = (v: string | undefined, def: number, max: number) => {
  const n = Number(v ?? def);
  return Number.isFinite(n) ? Math.min(max, Math.max(0, Math.floor(n))) : def;
};

/** Search calls of spec section 7 at their exact paths. */
export function searchRoutes(app: FastifyInstance, accounts: AccountService, search: SearchService) {
  const auth = { preHandler: requireAuth(accounts), bodyLimit: 24 * 1024 * 1024 };
  type Q = { Params: { id: string }; Querystring: { limit?: string; offset?: string; threshold?: string }; Body: SearchRequest };
  for (const type of SEARCH_RESULT_TYPES as readonly SearchResultType[]) {
    const path =
      type === 'visual' ? API.searchVisual(':id') : type === 'transcript' ? API.searchTranscript(':id') : API.searchUnified(':id');
    app.post<Q>(
      path,
      { ...auth, schema: { params: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } } }, body: request } },
      async (req, res) =>
        reply(
          req,
          res,
          ok(
            await search.search(
              sessionOf(req).user,
              req.params.id,
              type,
              req.body ?? {},
              num(req.query.limit, SEARCH_DEFAULT_LIMIT, 500),
              num(req.query.offset, 0, 10_000),
            ),
          ),
        ),
    );
  }
  app.post<{ Querystring: { limit?: string; offset?: string }; Body: { criteria: SearchRequest; libraryIds: string[] } }>(
    API.searchMulti,
    {
      ...auth,
      schema: {
        body: {
          type: 'object',
          required: ['criteria', 'libraryIds'],
          properties: {
            criteria: request,
            libraryIds: { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', format: 'uuid' } },
          },
        },
      },
    },
    async (req, res) =>
      reply(
        req,
        res,
        ok(
          await search.searchMany(
            sessionOf(req).user,
            req.body.libraryIds,
            req.body.criteria,
            num(req.query.limit, SEARCH_DEFAULT_LIMIT, 500),
            num(req.query.offset, 0, 10_000),
          ),
        ),
      ),
  );
}
