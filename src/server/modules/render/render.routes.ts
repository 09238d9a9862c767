import {
  API,
  compilationBodySchema,
  framingQuerySchema,
  gifBodySchema,
  mediaParamsSchema,
  renderStatusParamsSchema,
  srtQuerySchema,
} from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { FramingService } from './framing.service';
import type { RenderService } from './render.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { sendAttachment } from '../../http/contentDisposition';
import { ok, reply } from '../../http/envelope';

/**
 * Rendering (libraries spec section 7) and SRT downloads; params, query and bodies are
 * contract/schemas/render.ts. The POSTs answer 200 with the download URL when the render finishes
 * within RENDER_WAIT_MS, else 202 with the render id, to be polled at API.renderStatus.
 */
export function renderRoutes(app: App, accounts: AccountService, renders: RenderService, framing: FramingService) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;

  app.post(API.renderCompilation, { ...auth, schema: { body: compilationBodySchema } }, async (req, res) => {
    const r = await renders.compilation(user(req), req.body);
    return reply(req, res, { data: r.answer, status: r.status });
  });
  app.post(
    API.renderGif(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, body: gifBodySchema } },
    async (req, res) => {
      const r = await renders.gif(user(req), req.params.libraryId, req.params.mediaId, req.body);
      return reply(req, res, { data: r.answer, status: r.status });
    },
  );
  app.get(API.renderStatus(':renderId'), { ...auth, schema: { params: renderStatusParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await renders.status(user(req), req.params.renderId))),
  );
  // Issue 39: the automatic crop path of a range (the clip editor and the local preview show it).
  app.get(
    API.mediaFraming(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, querystring: framingQuerySchema } },
    async (req, res) => reply(req, res, ok(await framing.forUser(user(req), req.params.libraryId, req.params.mediaId, req.query))),
  );
  app.get(
    API.mediaSrt(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, querystring: srtQuerySchema } },
    async (req, res) => {
      const srt = await renders.srt(user(req), req.params.libraryId, req.params.mediaId, req.query);
      return sendAttachment(res, 'application/x-subrip; charset=utf-8', srt.filename, srt.text);
    },
  );
}
