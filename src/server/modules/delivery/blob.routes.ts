import fs from 'node:fs';
import pLimit from 'p-limit';
import type { FastifyReply } from 'fastify';
import type { App } from '../../app';
import type { BlobStore } from '../../adapters/blobs/blobStore';
import { LocalBlobStore } from '../../adapters/blobs/localBlobStore';
import { pictureWebp, stillWebp } from '../../adapters/media/ffprobe';
import { AppError, forbidden } from '../../errors';
import type { LibraryService } from '../libraries/library.service';
import type { UploadService } from '../upload/upload.service';
import type { TokenSigner } from '../../adapters/security/tokens';
import {
  API,
  blobFileParamsSchema,
  blobFileQuerySchema,
  blobPartParamsSchema,
  blobPartQuerySchema,
  FAILED_STATUSES,
  mediaParamsSchema,
  PHOTO_PICTURE_MAX_SIDE,
  previewQuerySchema,
  thumbnailQuerySchema,
  UPLOAD_CHUNK_SIZE,
  type MediaStatus,
} from '../../../contract';
import { rangeResponse } from '../../http/byteRanges';
import { ok, reply } from '../../http/envelope';
import { blobKeys } from '../storage/blobKeys';

/** ffmpeg runs a process makes inside requests at once (on-demand stills and photo pictures). */
const ON_DEMAND_FFMPEG = 2;

const MIME: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
};

/** Sends a local file honouring Range (one range, or several as multipart: byteRanges.ts), as browsers' video elements expect. */
export async function sendFileRange(res: FastifyReply, file: string, rangeHeader: string | undefined, headers: Record<string, string>) {
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat) throw new AppError('not_found', 'Not found.');
  const type = MIME[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
  const out = rangeResponse(rangeHeader, stat.size, type, (r) => fs.createReadStream(file, { start: r.start, end: r.end - 1 }));
  return res
    .code(out.status)
    .headers({ ...headers, ...out.headers })
    .send(out.body ?? undefined);
}

/**
 * Routes of the local blob store (signed part PUTs and signed downloads) and the thumbnail endpoint.
 * Part bodies are raw bytes streamed to disk, never buffered, whatever their content type.
 */
export function blobRoutes(app: App, blobs: BlobStore, uploads: UploadService, libs: LibraryService, tokens: TokenSigner) {
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
    if (!(blobs instanceof LocalBlobStore)) throw new AppError('not_found', 'Not found.');
    const key = req.params['*'].split('/').map(decodeURIComponent).join('/');
    const { exp = '', sig = '', filename = '', d = 'attachment' } = req.query;
    if (!blobs.verify(['get', key, exp, filename, d], sig)) throw forbidden('This download link is not valid.');
    if (Number(exp) * 1000 < Date.now()) throw forbidden('This download link has expired.');
    const headers: Record<string, string> = { 'cache-control': 'private, max-age=300' };
    if (filename)
      headers['content-disposition'] =
        `${d === 'inline' ? 'inline' : 'attachment'}; filename="${filename.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
    return sendFileRange(res, blobs.objectPath(key), req.headers.range, headers);
  });

  // Pictures made inside a request (a search card's still, a photo's picture): at most
  // ON_DEMAND_FFMPEG ffmpeg runs at once in this process, and one run per key however many ask at once.
  const onDemand = pLimit(ON_DEMAND_FFMPEG);
  const making = new Map<string, Promise<void>>();
  const madeOnce = (key: string, make: () => Promise<Buffer>) => {
    let run = making.get(key);
    if (!run) {
      run = onDemand(async () => {
        if (!(await blobs.exists(key))) await blobs.put(key, await make(), 'image/webp');
      }).finally(() => making.delete(key));
      making.set(key, run);
    }
    return run;
  };

  /** The media a preview-token request is for: the token's owner's, in the token's library only. */
  const previewedMedia = async (token: string | undefined, params: { libraryId: string; mediaId: string }) => {
    const { userId, libraryId } = await tokens.verifyPreview(token ?? '');
    if (libraryId !== params.libraryId) throw forbidden('The preview token is not valid for this library.');
    return libs.ownedMedia(userId, libraryId, params.mediaId);
  };

  // Thumbnails: authorised by the library preview token so <img> tags can load them.
  app.get(
    API.mediaThumbnail(':libraryId', ':mediaId'),
    { schema: { params: mediaParamsSchema, querystring: thumbnailQuerySchema } },
    async (req, res) => {
      const media = await previewedMedia(req.query.token, req.params);
      // A still is kept for a time inside the media only (one key per millisecond of it, at most).
      const t = req.query.t === undefined ? null : Math.min(req.query.t, Math.max(0, (media.duration ?? 0) - 0.05));
      const key = t === null ? blobKeys.poster(media.id) : blobKeys.still(media.id, t);
      if (!(await blobs.exists(key))) {
        if (t === null) throw new AppError('not_found', 'No thumbnail yet.');
        if (media.status === 'uploading') throw new AppError('not_found', 'No thumbnail yet.');
        await madeOnce(key, async () => stillWebp(await blobs.toolInput(media.blob_key), t, 280, 40));
      }
      // Ingest replaces the first poster with a representative keyframe: until then browsers ask again.
      const fresh = t === null && media.status !== 'completed';
      res.header('cache-control', fresh ? 'private, no-cache' : 'private, max-age=86400').type('image/webp');
      return res.send(await blobs.read(key));
    },
  );

  // A photo as it is looked at (the media modal, the moment dialog): made once, on first sight.
  app.get(
    API.mediaPicture(':libraryId', ':mediaId'),
    { schema: { params: mediaParamsSchema, querystring: previewQuerySchema } },
    async (req, res) => {
      const media = await previewedMedia(req.query.token, req.params);
      if (media.kind !== 'image') throw new AppError('not_found', 'Only photos have a picture: videos play.');
      if (media.status === 'uploading') throw new AppError('not_found', 'This photo is still uploading.');
      if (FAILED_STATUSES.includes(media.status as MediaStatus)) throw new AppError('not_found', 'This photo could not be read.');
      const key = blobKeys.picture(media.id);
      if (!(await blobs.exists(key))) {
        await madeOnce(key, async () => {
          const picture = await pictureWebp(await blobs.toolInput(media.blob_key), PHOTO_PICTURE_MAX_SIDE).catch(() => null);
          if (!picture) throw new AppError('not_found', 'This photo could not be read.');
          return picture;
        });
      }
      res.header('cache-control', 'private, max-age=86400').type('image/webp');
      return res.send(await blobs.read(key));
    },
  );
}
