import type { FastifyRequest } from 'fastify';
import { API, mediaParamsSchema, mediaQuerySchema, previewQuerySchema, previewSegmentParamsSchema } from '../../../contract';
import type { App } from '../../app';
import { readAll, type BlobStore } from '../../adapters/blobs/blobStore';
import type { TokenSigner } from '../../adapters/security/tokens';
import { AppError, forbidden } from '../../errors';
import type { AccountService } from '../accounts/account.service';
import type { LibraryService } from '../libraries/library.service';
import type { TranscriptService } from '../search/transcript.service';
import { isMp4Family } from '../libraries/mediaView';
import { bearer } from '../../http/auth';
import { rangeResponse } from '../../http/byteRanges';
import { ok, reply } from '../../http/envelope';
import { blobKeys } from '../storage/blobKeys';
import { parsePlaylist, writePlaylist } from './hlsPlaylist';

/**
 * Streaming and moment data: HLS previews, thumbnail strips, transcripts and shot descriptions.
 * Players and <img> tags cannot send headers, so these accept the library preview token in the
 * query as well as a bearer token (schemas in contract/schemas/preview.ts).
 */
export function previewRoutes(
  app: App,
  accounts: AccountService,
  libs: LibraryService,
  transcripts: TranscriptService,
  blobs: BlobStore,
  tokens: TokenSigner,
) {
  /** Whose request it is: the preview token's user (for that library only) or the bearer's. */
  async function requester(req: FastifyRequest, libraryId: string) {
    const q = req.query as { token?: string };
    if (q.token) {
      const p = await tokens.verifyPreview(q.token);
      if (p.libraryId !== libraryId) throw forbidden('The preview token is not valid for this library.');
      return p.userId;
    }
    const b = bearer(req);
    if (!b) throw new AppError('unauthorized', 'unauthorized');
    return (await accounts.authenticate(b)).user.id;
  }
  const authorise = async (req: FastifyRequest, libraryId: string, mediaId: string) =>
    libs.ownedMedia(await requester(req, libraryId), libraryId, mediaId);

  const playlist = async (req: FastifyRequest, libraryId: string, mediaId: string) => {
    const media = await authorise(req, libraryId, mediaId);
    if (!media.has_preview) throw new AppError('not_found', 'No preview is available for this media yet.');
    const token = (req.query as { token?: string }).token;
    const text = (await readAll(await blobs.read(blobKeys.hlsPlaylist(media.id)))).toString();
    // Segment URIs become absolute and carry the token, so hls.js can fetch them as they are.
    const query = token ? `?token=${encodeURIComponent(token)}` : '';
    return writePlaylist(
      parsePlaylist(text).map((seg) => ({ ...seg, uri: `${API.mediaPreviewSegment(libraryId, mediaId, seg.uri)}${query}` })),
    );
  };

  const ofMedia = { params: mediaParamsSchema, querystring: previewQuerySchema };
  app.get(API.mediaPreview(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) =>
    res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await playlist(req, req.params.libraryId, req.params.mediaId)),
  );
  app.get(API.previewPlaylist, { schema: { querystring: mediaQuerySchema } }, async (req, res) =>
    res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await playlist(req, req.query.libraryId, req.query.mediaId)),
  );
  const segment = { params: previewSegmentParamsSchema, querystring: previewQuerySchema };
  app.get(API.mediaPreviewSegment(':libraryId', ':mediaId', ':segment'), { schema: segment }, async (req, res) => {
    const media = await authorise(req, req.params.libraryId, req.params.mediaId);
    const key = blobKeys.hls(media.id, req.params.segment);
    if (!(await blobs.exists(key))) throw new AppError('not_found', 'Not found.');
    return res
      .type('video/mp2t')
      .header('cache-control', 'private, max-age=86400')
      .send(await blobs.read(key));
  });
  app.get(API.mediaSource(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) => {
    const media = await authorise(req, req.params.libraryId, req.params.mediaId);
    if (!isMp4Family(media.probe as Parameters<typeof isMp4Family>[0])) throw new AppError('not_found', 'This media has no MP4 source.');
    const size = await blobs.size(media.blob_key);
    // One range or several (multipart/byteranges): the thumbnail worker asks for a view's keyframes at once.
    const out = rangeResponse(req.headers.range, size, 'video/mp4', (range) => blobs.read(media.blob_key, range));
    return res
      .code(out.status)
      .headers(out.headers)
      .header('cache-control', 'private, max-age=86400')
      .send(out.body ?? undefined);
  });
  app.get(API.mediaStrip(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) => {
    const media = await authorise(req, req.params.libraryId, req.params.mediaId);
    const key = blobKeys.strip(media.id);
    if (!(await blobs.exists(key))) throw new AppError('not_found', 'No thumbnails yet.');
    return res
      .type('image/webp')
      .header('cache-control', 'private, max-age=86400')
      .send(await blobs.read(key));
  });

  app.get(API.transcriptJson, { schema: { querystring: mediaQuerySchema } }, async (req, res) => {
    const { libraryId, mediaId } = req.query;
    const userId = await requester(req, libraryId);
    return reply(req, res, ok(await transcripts.file(userId, libraryId, mediaId)));
  });
  app.get(API.shotDescriptionsJson, { schema: { querystring: mediaQuerySchema } }, async (req, res) => {
    const { libraryId, mediaId } = req.query;
    return reply(req, res, ok({ descriptions: await libs.shotDescriptions(await requester(req, libraryId), libraryId, mediaId) }));
  });
}
