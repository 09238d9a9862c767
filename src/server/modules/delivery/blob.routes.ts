import type { App } from '../../http/types';
import type { UploadService } from '../upload/upload.service';
import {
  API,
  blobFileParamsSchema,
  blobFileQuerySchema,
  blobPartParamsSchema,
  blobPartQuerySchema,
  mediaParamsSchema,
  previewQuerySchema,
  thumbnailQuerySchema,
  UPLOAD_CHUNK_SIZE,
} from '../../../contract';
import { ok, reply } from '../../http/envelope';
import type { DeliveryService } from './delivery.service';

/**
 * Routes of the local blob store (signed part PUTs and signed downloads), thumbnails and photo
 * pictures. Part bodies are raw bytes streamed to disk, never buffered, whatever their content type.
 */
export function blobRoutes(app: App, uploads: UploadService, delivery: DeliveryService) {
  void app.register(async (scope: App) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { bodyLimit: UPLOAD_CHUNK_SIZE + 1 }, (_req, payload, done) => done(null, payload));
    scope.put(
      '/blobs/upload/:uploadId/:part',
      { bodyLimit: UPLOAD_CHUNK_SIZE + 1, schema: { params: blobPartParamsSchema, querystring: blobPartQuerySchema } },
      async (req, res) => {
        const body = (req.body as NodeJS.ReadableStream | undefined) ?? req.raw;
        const { uploadId, part } = req.params;
        const r = await uploads.receiveLocalPart(uploadId, part, req.query.exp ?? '', req.query.sig ?? '', body as never);
        res.header('etag', `"${req.params.part}"`);
        return reply(req, res, ok(r));
      },
    );
  });

  app.get('/blobs/file/*', { schema: { params: blobFileParamsSchema, querystring: blobFileQuerySchema } }, async (req, res) => {
    const key = req.params['*'].split('/').map(decodeURIComponent).join('/');
    const out = await delivery.signedFile(key, req.query, req.headers.range);
    res.headers({ 'cache-control': 'private, max-age=300', ...out.headers });
    if (out.disposition) res.header('content-disposition', out.disposition);
    return res.code(out.status).send(out.body ?? undefined);
  });

  // Thumbnails: authorised by the library preview token so <img> tags can load them.
  app.get(
    API.mediaThumbnail(':libraryId', ':mediaId'),
    { schema: { params: mediaParamsSchema, querystring: thumbnailQuerySchema } },
    async (req, res) => {
      const still = await delivery.thumbnail(req.query.token, req.params.libraryId, req.params.mediaId, req.query.t);
      // Ingest replaces the first poster with a representative keyframe: until then browsers ask again.
      res.header('cache-control', still.fresh ? 'private, no-cache' : 'private, max-age=86400').type('image/webp');
      return res.send(still.body);
    },
  );

  // A photo as it is looked at (the media modal, the moment dialog): made once, on first sight.
  app.get(
    API.mediaPicture(':libraryId', ':mediaId'),
    { schema: { params: mediaParamsSchema, querystring: previewQuerySchema } },
    async (req, res) => {
      const picture = await delivery.photo(req.query.token, req.params.libraryId, req.params.mediaId);
      res.header('cache-control', 'private, max-age=86400').type('image/webp');
      return res.send(picture);
    },
  );
}
