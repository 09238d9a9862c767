import type { FastifyInstance } from 'fastify';
import {
  API,
  folderCreateBodySchema,
  folderDeleteQuerySchema,
  folderRenameBodySchema,
  libraryFolderParamsSchema,
  type FolderCreateBody,
  type FolderDeleteQuery,
  type FolderRenameBody,
  type UploadFinishBody,
  type UploadStartBody,
} from '../../contract';
import type { MediaSort } from '../repositories/media.repository';
import type { AccountService } from '../services/account.service';
import type { LibraryService } from '../services/library.service';
import type { UploadService } from '../services/upload.service';
import { requireAuth, sessionOf } from './auth';
import { ok, reply } from './envelope';

type P = { id: string; libraryId: string; folderId: string; mediaId: string };
const SORTS: MediaSort[] = ['title', 'modified', 'added', 'duration'];

/** Parses `sort` given as `title#1` / `modified#-1` (the client's stored key) or as sort + direction. */
function parseSort(q: { sort?: string; direction?: string }): { sort: MediaSort; direction: 1 | -1 } {
  const [key, dir] = (q.sort ?? 'modified#1').split('#');
  const sort = SORTS.includes(key as MediaSort) ? (key as MediaSort) : 'modified';
  const d = Number(q.direction ?? dir ?? 1);
  return { sort, direction: d === -1 ? -1 : 1 };
}

const nameBody = { body: { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 1000 } } } };
const idList = { type: 'array', maxItems: 1000, items: { type: 'string', format: 'uuid' } };

/** Library, folder, media and upload calls (libraries spec section 7), at their exact paths (patterns built from the contract). */
export function libraryRoutes(app: FastifyInstance, accounts: AccountService, libs: LibraryService, uploads: UploadService) {
  const auth = { preHandler: requireAuth(accounts) };
  const user = (req: Parameters<typeof sessionOf>[0]) => sessionOf(req).user;
  const uuidParams = (...names: string[]) => ({
    params: { type: 'object', properties: Object.fromEntries(names.map((n) => [n, { type: 'string', format: 'uuid' }])) },
  });

  app.get(API.libraries, auth, async (req, res) => reply(req, res, ok(await libs.list(user(req)))));
  app.post<{ Body: { name?: string } }>(
    API.libraries,
    {
      ...auth,
      schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength: 1000 }, settings: { type: 'object' } } } },
    },
    async (req, res) => reply(req, res, { data: await libs.create(user(req), req.body.name), status: 201 }),
  );
  app.get<{ Params: P }>(API.library(':id'), { ...auth, schema: uuidParams('id') }, async (req, res) =>
    reply(req, res, ok(await libs.get(user(req), req.params.id))),
  );
  app.patch<{ Params: P; Body: { name: string } }>(
    API.library(':id'),
    { ...auth, schema: { ...uuidParams('id'), ...nameBody } },
    async (req, res) => reply(req, res, ok(await libs.rename(user(req), req.params.id, req.body.name))),
  );
  app.delete<{ Params: P }>(API.library(':id'), { ...auth, schema: uuidParams('id') }, async (req, res) =>
    reply(req, res, ok(await libs.remove(user(req), req.params.id))),
  );
  app.get<{ Params: P }>(API.libraryPreviewToken(':id'), { ...auth, schema: uuidParams('id') }, async (req, res) =>
    reply(req, res, ok(await libs.previewToken(user(req), req.params.id))),
  );

  type FolderQ = { Params: P; Querystring: { sort?: string; direction?: string } };
  app.get<FolderQ>(API.folder(':libraryId'), { ...auth, schema: uuidParams('libraryId') }, async (req, res) => {
    const s = parseSort(req.query);
    return reply(req, res, ok(await libs.folder(user(req), req.params.libraryId, undefined, s.sort, s.direction)));
  });
  app.get<FolderQ>(API.folder(':libraryId', ':folderId'), { ...auth, schema: uuidParams('libraryId', 'folderId') }, async (req, res) => {
    const s = parseSort(req.query);
    return reply(req, res, ok(await libs.folder(user(req), req.params.libraryId, req.params.folderId, s.sort, s.direction)));
  });
  app.post<{ Params: P; Body: FolderCreateBody }>(
    API.folderCreate(':libraryId'),
    { ...auth, schema: { ...uuidParams('libraryId'), body: folderCreateBodySchema } },
    async (req, res) => reply(req, res, { data: await libs.createFolder(user(req), req.params.libraryId, req.body), status: 201 }),
  );
  app.patch<{ Params: P; Body: FolderRenameBody }>(
    API.folder(':libraryId', ':folderId'),
    { ...auth, schema: { params: libraryFolderParamsSchema, body: folderRenameBodySchema } },
    async (req, res) => reply(req, res, ok(await libs.renameFolder(user(req), req.params.libraryId, req.params.folderId, req.body.name))),
  );
  app.delete<{ Params: P; Querystring: FolderDeleteQuery }>(
    API.folder(':libraryId', ':folderId'),
    { ...auth, schema: { params: libraryFolderParamsSchema, querystring: folderDeleteQuerySchema } },
    async (req, res) =>
      reply(req, res, ok(await libs.deleteFolder(user(req), req.params.libraryId, req.params.folderId, req.query.recursive === true))),
  );
  app.get<{ Params: P; Querystring: { folderId?: string; sort?: string; direction?: string; start?: number; end?: number } }>(
    API.mediaRange(':libraryId'),
    {
      ...auth,
      schema: {
        ...uuidParams('libraryId'),
        querystring: {
          type: 'object',
          properties: {
            folderId: { type: 'string', format: 'uuid' },
            sort: { type: 'string', maxLength: 40 },
            direction: { type: 'string', maxLength: 4 },
            start: { type: 'integer', minimum: 0, maximum: 1_000_000 },
            end: { type: 'integer', minimum: 0, maximum: 1_000_000 },
          },
        },
      },
    },
    async (req, res) => {
      const s = parseSort(req.query);
      const start = req.query.start ?? 0;
      const end = req.query.end ?? start + 50;
      return reply(req, res, ok(await libs.range(user(req), req.params.libraryId, req.query.folderId, s.sort, s.direction, start, end)));
    },
  );

  app.get<{ Params: P }>(API.media(':libraryId', ':mediaId'), { ...auth, schema: uuidParams('libraryId', 'mediaId') }, async (req, res) =>
    reply(req, res, ok(await libs.getMedia(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.patch<{ Params: P; Body: { name: string } }>(
    API.media(':libraryId', ':mediaId'),
    { ...auth, schema: { ...uuidParams('libraryId', 'mediaId'), ...nameBody } },
    async (req, res) => reply(req, res, ok(await libs.renameMedia(user(req), req.params.libraryId, req.params.mediaId, req.body.name))),
  );
  app.delete<{ Params: P }>(
    API.media(':libraryId', ':mediaId'),
    { ...auth, schema: uuidParams('libraryId', 'mediaId') },
    async (req, res) => reply(req, res, ok(await libs.deleteMedia(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.post<{ Params: P; Body: { mediaIds: string[] } }>(
    API.mediaBulkDelete(':libraryId'),
    { ...auth, schema: { ...uuidParams('libraryId'), body: { type: 'object', required: ['mediaIds'], properties: { mediaIds: idList } } } },
    async (req, res) => reply(req, res, ok(await libs.bulkDelete(user(req), req.params.libraryId, req.body.mediaIds))),
  );
  app.post<{ Params: P }>(API.mediaDeleteErrored(':libraryId'), { ...auth, schema: uuidParams('libraryId') }, async (req, res) =>
    reply(req, res, ok(await libs.deleteErrored(user(req), req.params.libraryId))),
  );
  app.post<{ Params: P }>(
    API.mediaRetry(':libraryId', ':mediaId'),
    { ...auth, schema: uuidParams('libraryId', 'mediaId') },
    async (req, res) => reply(req, res, ok(await libs.retry(user(req), req.params.libraryId, req.params.mediaId))),
  );
  app.post<{ Params: P }>(API.mediaRetryFailed(':libraryId'), { ...auth, schema: uuidParams('libraryId') }, async (req, res) =>
    reply(req, res, ok(await libs.retryFailed(user(req), req.params.libraryId))),
  );
  app.post<{ Params: P; Body: { mediaIds?: string[] } }>(
    API.uploadsClear(':libraryId'),
    { ...auth, schema: { ...uuidParams('libraryId'), body: { type: 'object', properties: { mediaIds: idList } } } },
    async (req, res) => reply(req, res, ok(await libs.clearUploads(user(req), req.params.libraryId, req.body?.mediaIds))),
  );
  app.get<{ Params: P; Querystring: { filename?: string } }>(
    API.mediaOriginal(':libraryId', ':mediaId'),
    { ...auth, schema: uuidParams('libraryId', 'mediaId') },
    async (req, res) =>
      reply(req, res, ok(await libs.originalUrl(user(req), req.params.libraryId, req.params.mediaId, req.query.filename))),
  );

  app.post<{ Params: P; Body: UploadStartBody }>(
    API.uploadStart(':id', ':folderId'),
    {
      ...auth,
      schema: {
        ...uuidParams('id', 'folderId'),
        body: {
          type: 'object',
          required: ['filename', 'size', 'parts', 'uniqueId', 'deduplicationPolicy'],
          properties: {
            filename: { type: 'string', maxLength: 1000 },
            size: { type: 'number' },
            parts: { type: 'integer' },
            uniqueId: { type: 'string', maxLength: 200 },
            deduplicationPolicy: { type: 'object', properties: { onConflict: { type: 'string' } } },
          },
        },
      },
    },
    async (req, res) =>
      reply(req, res, { data: await uploads.start(user(req), req.params.id, req.params.folderId, req.body), status: 201 }),
  );
  app.post<{ Params: P; Body: UploadFinishBody }>(
    API.uploadFinish(':id', ':mediaId'),
    {
      ...auth,
      schema: {
        ...uuidParams('id', 'mediaId'),
        body: {
          type: 'object',
          required: ['opaqueData'],
          properties: {
            opaqueData: { type: 'string', maxLength: 4000 },
            parts: {
              type: 'array',
              maxItems: 10_000,
              items: {
                type: 'object',
                required: ['partNumber', 'etag'],
                properties: { partNumber: { type: 'integer' }, etag: { type: 'string', maxLength: 200 } },
              },
            },
          },
        },
      },
    },
    async (req, res) =>
      reply(req, res, ok(await uploads.finish(user(req), req.params.id, req.params.mediaId, req.body.opaqueData, req.body.parts))),
  );
}
