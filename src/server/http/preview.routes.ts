import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API, isUuid, MSG } from '../../contract';
import { readAll, type BlobStore } from '../adapters/blobs/blobStore';
import type { TokenSigner } from '../adapters/security/tokens';
import { AppError, forbidden } from '../errors';
import type { IndexRepository } from '../repositories/index.repository';
import type { AccountService } from '../services/account.service';
import type { LibraryService } from '../services/library.service';
import type { TranscriptService } from '../services/transcript.service';
import { isMp4Family } from '../services/mediaView';
import { bearer } from './auth';
import { rangeResponse } from './byteRanges';
import { ok, reply } from './envelope';

/**
 * Streaming and moment data: HLS previews, thumbnail strips, transcripts and shot descriptions.
 * Players and <img> tags cannot send headers, so these accept the library preview token in the
 * query as well as a bearer token.
 */
export function previewRoutes(
  app: FastifyInstance,
  accounts: AccountService,
  libs: LibraryService,
  index: IndexRepository,
  transcripts: TranscriptService,
  blobs: BlobStore,
  tokens: TokenSigner,
) {
  /** Whose request it is: the preview token's user (for that library only) or the bearer's. */
  async function requester(req: FastifyRequest, libraryId: string, mediaId: string) {
    // The query-string forms may leave an id out: nothing to look up then.
    if (!isUuid(libraryId) || !isUuid(mediaId)) throw new AppError('not_found', MSG.notFound);
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
    libs.ownedMedia(await requester(req, libraryId, mediaId), libraryId, mediaId);

  const playlist = async (req: FastifyRequest, libraryId: string, mediaId: string) => {
    const media = await authorise(req, libraryId, mediaId);
    if (!media.has_preview) throw new AppError('not_found', 'No preview is available for this media yet.');
    const token = (req.query as { token?: string }).token;
    const text = (await readAll(await blobs.read(`derived/${media.id}/hls/playlist.m3u8`))).toString();
    // Segment URIs become absolute and carry the token, so hls.js can fetch them as they are.
    return text.replace(
      /^(seg_\d+\.ts)$/gm,
      (seg) => `${API.mediaPreviewSegment(libraryId, mediaId, seg)}${token ? `?token=${encodeURIComponent(token)}` : ''}`,
    );
  };

  type P = {
    Params: { libraryId: string; mediaId: string; segment: string };
    Querystring: { token?: string; libraryId?: string; mediaId?: string };
  };
  app.get<P>(API.mediaPreview(':libraryId', ':mediaId'), async (req, res) =>
    res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await playlist(req, req.params.libraryId, req.params.mediaId)),
  );
  app.get<P>(API.previewPlaylist, async (req, res) => {
    const { libraryId = '', mediaId = '' } = req.query;
    return res
      .type('application/vnd.apple.mpegurl')
      .header('cache-control', 'private, max-age=60')
      .send(await playlist(req, libraryId, mediaId));
  });
  app.get<P>(API.mediaPreviewSegment(':libraryId', ':mediaId', ':segment'), async (req, res) => {
    if (!/^seg_\d+\.ts$/.test(req.params.segment)) throw new AppError('not_found', 'Not found.');
    const media = await authorise(req, req.params.libraryId, req.params.mediaId);
    const key = `derived/${media.id}/hls/${req.params.segment}`;
    if (!(await blobs.exists(key))) throw new AppError('not_found', 'Not found.');
    return res
      .type('video/mp2t')
      .header('cache-control', 'private, max-age=86400')
      .send(await blobs.read(key));
  });
  app.get<P>(API.mediaSource(':libraryId', ':mediaId'), async (req, res) => {
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
  app.get<P>(API.mediaStrip(':libraryId', ':mediaId'), async (req, res) => {
    const media = await authorise(req, req.params.libraryId, req.params.mediaId);
    const key = `derived/${media.id}/strip.webp`;
    if (!(await blobs.exists(key))) throw new AppError('not_found', 'No thumbnails yet.');
    return res
      .type('image/webp')
      .header('cache-control', 'private, max-age=86400')
      .send(await blobs.read(key));
  });

  app.get<P>(API.transcriptJson, async (req, res) => {
    const { libraryId = '', mediaId = '' } = req.query;
    const userId = await requester(req, libraryId, mediaId);
    return reply(req, res, ok(await transcripts.file(userId, libraryId, mediaId)));
  });
  app.get<P>(API.shotDescriptionsJson, async (req, res) => {
    const media = await authorise(req, req.query.libraryId ?? '', req.query.mediaId ?? '');
    const descriptions = (await index.shots(media.id))
      .filter((s) => s.description)
      .map((s) => ({ start: s.start, end: s.end, desc: s.description }));
    return reply(req, res, ok({ descriptions }));
  });
}
