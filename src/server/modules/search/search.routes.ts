import {
  API,
  libraryParamsSchema,
  multiSearchBodySchema,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_DEFAULT_SKIP,
  SEARCH_RESULT_TYPES,
  searchQuerySchema,
  searchRequestSchema,
} from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { SearchService } from './search.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

const PATHS = { visual: API.searchVisual(':id'), transcript: API.searchTranscript(':id'), unified: API.searchUnified(':id') } as const;

/** Search calls of spec section 7 at their exact paths; query and bodies are contract/schemas/search.ts. */
export function searchRoutes(app: App, accounts: AccountService, search: SearchService) {
  const auth = { preHandler: requireAuth(accounts), bodyLimit: 24 * 1024 * 1024 };
  for (const type of SEARCH_RESULT_TYPES) {
    app.post(
      PATHS[type],
      { ...auth, schema: { params: libraryParamsSchema, querystring: searchQuerySchema, body: searchRequestSchema } },
      async (req, res) => {
        const { limit = SEARCH_DEFAULT_LIMIT, offset = SEARCH_DEFAULT_SKIP } = req.query;
        return reply(req, res, ok(await search.search(sessionOf(req), req.params.id, type, req.body, limit, offset)));
      },
    );
  }
  app.post(API.searchMulti, { ...auth, schema: { querystring: searchQuerySchema, body: multiSearchBodySchema } }, async (req, res) => {
    const { limit = SEARCH_DEFAULT_LIMIT, offset = SEARCH_DEFAULT_SKIP } = req.query;
    return reply(req, res, ok(await search.searchMany(sessionOf(req), req.body.libraryIds, req.body.criteria, limit, offset)));
  });
}
