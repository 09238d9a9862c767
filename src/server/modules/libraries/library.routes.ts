import {
  API,
  folderCreateBodySchema,
  folderDeleteQuerySchema,
  folderParamsSchema,
  folderRenameBodySchema,
  libraryCreateBodySchema,
  libraryFolderParamsSchema,
  libraryIdParamsSchema,
  libraryParamsSchema,
  mediaIdsBodySchema,
  mediaParamsSchema,
  mediaRangeQuerySchema,
  mediaSortQuerySchema,
  nameBodySchema,
  optionalMediaIdsBodySchema,
  originalQuerySchema,
  uploadFinishBodySchema,
  uploadFinishParamsSchema,
  uploadStartBodySchema,
  type MediaSortQuery,
} from '../../../contract';
import type { App } from '../../http/types';
import type { MediaSort } from './library.service';
import type { AccountService } from '../accounts/account.service';
import type { LibraryService } from './library.service';
import type { UploadService } from '../upload/upload.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

/** `title#-1` or `title` with `direction` (both already checked by mediaSortQuerySchema); default modified, ascending. */
function parseSort(q: MediaSortQuery): { sort: MediaSort; direction: 1 | -1 } {
  const [key = 'modified', dir] = (q.sort ?? 'modified').split('#');
  return { sort: key as MediaSort, direction: (q.direction ?? Number(dir ?? 1)) === -1 ? -1 : 1 };
}

/**
 * Library, folder, media and upload calls (libraries spec section 7), at their exact paths; params,
 * query and body are the schemas of contract/schemas/library.ts.
 */
export function libraryRoutes(app: App, accounts: AccountService, libs: LibraryService, uploads: UploadService) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;

  app.get(API.libraries, auth, async (req, res) => reply(req, res, ok(await libs.list(user(req)))));
  app.post(API.libraries, { ...auth, schema: { body: libraryCreateBodySchema } }, async (req, res) =>
    reply(req, res, { data: await libs.create(user(req), req.body.name), status: 201 }),
  );
  app.get(API.library(':id'), { ...auth, schema: { params: libraryParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.get(user(req), req.params.id))),
  );
  app.patch(API.library(':id'), { ...auth, schema: { params: libraryParamsSchema, body: nameBodySchema } }, async (req, res) =>
    reply(req, res, ok(await libs.rename(user(req), req.params.id, req.body.name))),
  );
  app.delete(API.library(':id'), { ...auth, schema: { params: libraryParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.remove(user(req), req.params.id))),
  );
  app.get(API.libraryPreviewToken(':id'), { ...auth, schema: { params: libraryParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.previewToken(user(req), req.params.id))),
  );

  app.get(
    API.folder(':libraryId'),
    { ...auth, schema: { params: libraryIdParamsSchema, querystring: mediaSortQuerySchema } },
    async (req, res) => {
      const s = parseSort(req.query);
      return reply(req, res, ok(await libs.folder(user(req), req.params.libraryId, undefined, s.sort, s.direction)));
    },
  );
  app.get(
    API.folder(':libraryId', ':folderId'),
    { ...auth, schema: { params: libraryFolderParamsSchema, querystring: mediaSortQuerySchema } },
    async (req, res) => {
      const s = parseSort(req.query);
      return reply(req, res, ok(await libs.folder(user(req), req.params.libraryId, req.params.folderId, s.sort, s.direction)));
    },
  );
  app.post(
    API.folderCreate(':libraryId'),
    { ...auth, schema: { params: libraryIdParamsSchema, body: folderCreateBodySchema } },
    async (req, res) => reply(req, res, { data: await libs.createFolder(user(req), req.params.libraryId, req.body), status: 201 }),
  );
  app.patch(
    API.folder(':libraryId', ':folderId'),
    { ...auth, schema: { params: libraryFolderParamsSchema, body: folderRenameBodySchema } },
    async (req, res) => reply(req, res, ok(await libs.renameFolder(user(req), req.params.libraryId, req.params.folderId, req.body.name))),
  );
  app.delete(
    API.folder(':libraryId', ':folderId'),
    { ...auth, schema: { params: libraryFolderParamsSchema, querystring: folderDeleteQuerySchema } },
    async (req, res) =>
      reply(req, res, ok(await libs.deleteFolder(user(req), req.params.libraryId, req.params.folderId, req.query.recursive === true))),
  );
  app.get(
    API.mediaRange(':libraryId'),
    { ...auth, schema: { params: libraryIdParamsSchema, querystring: mediaRangeQuerySchema } },
    async (req, res) => {
      const s = parseSort(req.query);
      const start = req.query.start ?? 0;
      const end = req.query.end ?? start + 50;
      return reply(req, res, ok(await libs.range(user(req), req.params.libraryId, req.query.folderId, s.sort, s.direction, start, end)));
    },
  );

  app.get(API.media(':libraryId', ':mediaId'), { ...auth, schema: { params: mediaParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.getMedia(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.patch(
    API.media(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, body: nameBodySchema } },
    async (req, res) => reply(req, res, ok(await libs.renameMedia(user(req), req.params.libraryId, req.params.mediaId, req.body.name))),
  );
  app.delete(API.media(':libraryId', ':mediaId'), { ...auth, schema: { params: mediaParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.deleteMedia(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.post(
    API.mediaBulkDelete(':libraryId'),
    { ...auth, schema: { params: libraryIdParamsSchema, body: mediaIdsBodySchema } },
    async (req, res) => reply(req, res, ok(await libs.bulkDelete(user(req), req.params.libraryId, req.body.mediaIds))),
  );
  app.post(API.mediaDeleteErrored(':libraryId'), { ...auth, schema: { params: libraryIdParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.deleteErrored(user(req), req.params.libraryId))),
  );
  app.post(API.mediaRetry(':libraryId', ':mediaId'), { ...auth, schema: { params: mediaParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.retry(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.post(API.mediaRetryFailed(':libraryId'), { ...auth, schema: { params: libraryIdParamsSchema } }, async (req, res) =>
    reply(req, res, ok(await libs.retryFailed(user(req), req.params.libraryId))),
  );
  app.post(
    API.uploadsClear(':libraryId'),
    { ...auth, schema: { params: libraryIdParamsSchema, body: optionalMediaIdsBodySchema } },
    async (req, res) => reply(req, res, ok(await libs.clearUploads(user(req), req.params.libraryId, req.body.mediaIds))),
  );
  app.get(
    API.mediaOriginal(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, querystring: originalQuerySchema } },
    async (req, res) =>
      reply(req, res, ok(await libs.originalUrl(user(req), req.params.libraryId, req.params.mediaId, req.query.filename))),
  );

  app.post(
    API.uploadStart(':id', ':folderId'),
    { ...auth, schema: { params: folderParamsSchema, body: uploadStartBodySchema } },
    async (req, res) =>
      reply(req, res, { data: await uploads.start(user(req), req.params.id, req.params.folderId, req.body), status: 201 }),
  );
  app.post(
    API.uploadFinish(':id', ':mediaId'),
    { ...auth, schema: { params: uploadFinishParamsSchema, body: uploadFinishBodySchema } },
    async (req, res) =>
      reply(req, res, ok(await uploads.finish(user(req), req.params.id, req.params.mediaId, req.body.opaqueData, req.body.parts))),
  );
}
