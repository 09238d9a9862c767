import type { FastifyRequest } from 'fastify';
import { API, mediaParamsSchema, mediaQuerySchema, previewQuerySchema, previewSegmentParamsSchema } from '../../../contract';
import type { App } from '../../http/types';
import type { LibraryService } from '../libraries/library.service';
import type { TranscriptService } from '../search/transcript.service';
import { bearer } from '../../http/auth';
import { ok, reply } from '../../http/envelope';
import type { Credentials, DeliveryService } from './delivery.service';

/** A request's credentials: the library preview token in the query (players and <img> tags cannot send headers) or a bearer token. */
const credentials = (req: FastifyRequest): Credentials => ({ token: (req.query as { token?: string }).token, bearer: bearer(req) });

/**
 * Streaming and moment data: HLS previews, the MP4 source, thumbnail strips and tracks, transcripts and shot descriptions.
 * These accept the library preview token in the query as well as a bearer token (schemas in
 * contract/schemas/preview.ts).
 */
export function previewRoutes(app: App, delivery: DeliveryService, libs: LibraryService, transcripts: TranscriptService) {
  const kept = 'private, max-age=86400';
  const ofMedia = { params: mediaParamsSchema, querystring: previewQuerySchema };
  app.get(API.mediaPreview(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) =>
    res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await delivery.playlist(credentials(req), req.params.libraryId, req.params.mediaId)),
  );
  app.get(API.previewPlaylist, { schema: { querystring: mediaQuerySchema } }, async (req, res) =>
    res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await delivery.playlist(credentials(req), req.query.libraryId, req.query.mediaId)),
  );
  const segment = { params: previewSegmentParamsSchema, querystring: previewQuerySchema };
  app.get(API.mediaPreviewSegment(':libraryId', ':mediaId', ':segment'), { schema: segment }, async (req, res) => {
    const { libraryId, mediaId } = req.params;
    const body = await delivery.segment(credentials(req), libraryId, mediaId, req.params.segment);
    return res.type('video/mp2t').header('cache-control', kept).send(body);
  });
  app.get(API.mediaSource(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) => {
    const out = await delivery.source(credentials(req), req.params.libraryId, req.params.mediaId, req.headers.range);
    return res
      .code(out.status)
      .headers(out.headers)
      .header('cache-control', kept)
      .send(out.body ?? undefined);
  });
  app.get(API.mediaThumbnailTrack(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) => {
    const out = await delivery.thumbnailTrack(credentials(req), req.params.libraryId, req.params.mediaId, req.headers.range);
    return res
      .code(out.status)
      .headers(out.headers)
      .header('cache-control', kept)
      .send(out.body ?? undefined);
  });
  app.get(API.mediaStrip(':libraryId', ':mediaId'), { schema: ofMedia }, async (req, res) => {
    const body = await delivery.strip(credentials(req), req.params.libraryId, req.params.mediaId);
    return res.type('image/webp').header('cache-control', kept).send(body);
  });

  app.get(API.transcriptJson, { schema: { querystring: mediaQuerySchema } }, async (req, res) => {
    const { libraryId, mediaId } = req.query;
    const userId = await delivery.requester(credentials(req), libraryId);
    return reply(req, res, ok(await transcripts.file(userId, libraryId, mediaId)));
  });
  app.get(API.shotDescriptionsJson, { schema: { querystring: mediaQuerySchema } }, async (req, res) => {
    const { libraryId, mediaId } = req.query;
    const userId = await delivery.requester(credentials(req), libraryId);
    return reply(req, res, ok({ descriptions: await libs.shotDescriptions(userId, libraryId, mediaId) }));
  });
}
