import fs from 'node:fs';
import type { Readable } from 'node:stream';
import pLimit from 'p-limit';
import { API, FAILED_STATUSES, PHOTO_PICTURE_MAX_SIDE, type MediaStatus } from '../../../contract';
import { readAll, type BlobStore } from '../../adapters/blobs/blobStore';
import { LocalBlobStore } from '../../adapters/blobs/localBlobStore';
import { contentDisposition } from '../../http/contentDisposition';
import { pictureWebp, stillWebp } from '../../adapters/media/ffprobe';
import { BACKGROUND } from '../../adapters/process/tools';
import type { TokenSigner } from '../../adapters/security/tokens';
import { AppError, forbidden } from '../../errors';
import { rangeResponse, type RangeResponse } from '../../http/byteRanges';
import type { MediaRow } from '../libraries/media.repository';
import type { AccountService } from '../accounts/account.service';
import type { LibraryService } from '../libraries/library.service';
import { isMp4Family } from '../libraries/mediaView';
import { blobKeys } from '../storage/blobKeys';
import { parsePlaylist, writePlaylist } from './hlsPlaylist';

/** ffmpeg runs a process makes inside requests at once (on-demand stills and photo pictures). */
export const ON_DEMAND_FFMPEG = 2;

const MIME: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  avi: 'video/x-msvideo',
  mpg: 'video/mpeg',
  mpeg: 'video/mpeg',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  '3gp': 'video/3gpp',
  ogv: 'video/ogg',
  mts: 'video/mp2t',
  webp: 'image/webp',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
};

/** How a request proves who it is for: a library preview token (players and <img> tags) or a bearer token. */
export interface Credentials {
  token?: string;
  bearer?: string | null;
}

export interface DeliveryDeps {
  accounts: Pick<AccountService, 'authenticate'>;
  libraries: Pick<LibraryService, 'ownedMedia'>;
  blobs: BlobStore;
  tokens: Pick<TokenSigner, 'verifyPreview'>;
  /** Makes a still (tests replace ffmpeg). */
  still?: (input: string, seconds: number) => Promise<Buffer>;
  picture?: (input: string) => Promise<Buffer>;
}

/**
 * What media is delivered as: HLS previews (the playlist rewritten to carry the token), its
 * segments, the MP4 source by byte ranges, thumbnail strips, stills and photo pictures made on
 * first sight (ffmpeg capped at ON_DEMAND_FFMPEG runs at once, one run per key, below the
 * requests' priority), and signed downloads of the local blob store. Routes only parse and reply.
 */
export class DeliveryService {
  private readonly onDemand = pLimit(ON_DEMAND_FFMPEG);
  private readonly making = new Map<string, Promise<void>>();
  private readonly still: (input: string, seconds: number) => Promise<Buffer>;
  private readonly picture: (input: string) => Promise<Buffer>;

  constructor(private readonly d: DeliveryDeps) {
    this.still = d.still ?? ((input, t) => stillWebp(input, t, 280, 40, BACKGROUND.delivery));
    this.picture = d.picture ?? ((input) => pictureWebp(input, PHOTO_PICTURE_MAX_SIDE, 82, BACKGROUND.delivery));
  }

  /** Whose request it is: the preview token's user (for that library only) or the bearer's. */
  async requester(c: Credentials, libraryId: string): Promise<string> {
    if (c.token) {
      const p = await this.d.tokens.verifyPreview(c.token);
      if (p.libraryId !== libraryId) throw forbidden('The preview token is not valid for this library.');
      return p.userId;
    }
    if (!c.bearer) throw new AppError('unauthorized', 'unauthorized');
    return (await this.d.accounts.authenticate(c.bearer)).user.id;
  }

  /** The media a request may read: its requester's, in that library. */
  async media(c: Credentials, libraryId: string, mediaId: string): Promise<MediaRow> {
    return this.d.libraries.ownedMedia(await this.requester(c, libraryId), libraryId, mediaId);
  }

  /** The media of a request only a preview token may make (an <img>'s): the token's owner's, in the token's library only. */
  private async previewed(token: string | undefined, libraryId: string, mediaId: string): Promise<MediaRow> {
    const p = await this.d.tokens.verifyPreview(token ?? '');
    if (p.libraryId !== libraryId) throw forbidden('The preview token is not valid for this library.');
    return this.d.libraries.ownedMedia(p.userId, libraryId, mediaId);
  }

  /** The preview playlist, its segment URIs absolute and carrying the token, so hls.js fetches them as they are. */
  async playlist(c: Credentials, libraryId: string, mediaId: string): Promise<string> {
    const media = await this.media(c, libraryId, mediaId);
    if (!media.has_preview) throw new AppError('not_found', 'No preview is available for this media yet.');
    const text = (await readAll(await this.d.blobs.read(blobKeys.hlsPlaylist(media.id)))).toString();
    const query = c.token ? `?token=${encodeURIComponent(c.token)}` : '';
    return writePlaylist(
      parsePlaylist(text).map((seg) => ({ ...seg, uri: `${API.mediaPreviewSegment(libraryId, mediaId, seg.uri)}${query}` })),
    );
  }

  async segment(c: Credentials, libraryId: string, mediaId: string, segment: string): Promise<Readable> {
    const media = await this.media(c, libraryId, mediaId);
    return this.existing(blobKeys.hls(media.id, segment), 'Not found.');
  }

  /** The MP4 original by byte ranges (one or several: the thumbnail worker asks for a view's keyframes at once). */
  async source(c: Credentials, libraryId: string, mediaId: string, rangeHeader: string | undefined): Promise<RangeResponse> {
    const media = await this.media(c, libraryId, mediaId);
    if (!isMp4Family(media.probe)) throw new AppError('not_found', 'This media has no MP4 source.');
    const size = await this.d.blobs.size(media.blob_key);
    return rangeResponse(rangeHeader, size, 'video/mp4', (range) => this.d.blobs.read(media.blob_key, range));
  }

  /**
   * The timeline thumbnail track (made by ingest's `thumbnails` stage, videos only) by byte ranges,
   * authorised like the source.
   */
  async thumbnailTrack(c: Credentials, libraryId: string, mediaId: string, rangeHeader: string | undefined): Promise<RangeResponse> {
    const media = await this.media(c, libraryId, mediaId);
    const key = blobKeys.thumbnailTrack(media.id);
    const size = media.ingest?.track ? await this.d.blobs.size(key).catch(() => null) : null;
    if (size === null) throw new AppError('not_found', 'This media has no thumbnail track.');
    return rangeResponse(rangeHeader, size, 'video/mp4', (range) => this.d.blobs.read(key, range));
  }

  async strip(c: Credentials, libraryId: string, mediaId: string): Promise<Readable> {
    const media = await this.media(c, libraryId, mediaId);
    return this.existing(blobKeys.strip(media.id), 'No thumbnails yet.');
  }

  /**
   * A media's poster (`t` absent), or its still at `t` seconds, made on first sight and kept (one
   * key per millisecond of the media at most: `t` is clamped inside it). `fresh`: the poster may
   * still change (ingest replaces the first one with a representative keyframe).
   */
  async thumbnail(token: string | undefined, libraryId: string, mediaId: string, t: number | undefined) {
    const media = await this.previewed(token, libraryId, mediaId);
    const at = t === undefined ? null : Math.min(t, Math.max(0, (media.duration ?? 0) - 0.05));
    const key = at === null ? blobKeys.poster(media.id) : blobKeys.still(media.id, at);
    if (!(await this.d.blobs.exists(key))) {
      if (at === null || media.status === 'uploading') throw new AppError('not_found', 'No thumbnail yet.');
      await this.madeOnce(key, async () => this.still(await this.d.blobs.toolInput(media.blob_key), at));
    }
    return { body: await this.d.blobs.read(key), fresh: at === null && media.status !== 'completed' };
  }

  /** A photo as it is looked at (the media modal, the moment dialog): made once, on first sight. */
  async photo(token: string | undefined, libraryId: string, mediaId: string): Promise<Readable> {
    const media = await this.previewed(token, libraryId, mediaId);
    if (media.kind !== 'image') throw new AppError('not_found', 'Only photos have a picture: videos play.');
    if (media.status === 'uploading') throw new AppError('not_found', 'This photo is still uploading.');
    if (FAILED_STATUSES.includes(media.status as MediaStatus)) throw new AppError('not_found', 'This photo could not be read.');
    const key = blobKeys.picture(media.id);
    if (!(await this.d.blobs.exists(key))) {
      await this.madeOnce(key, async () => {
        const picture = await this.picture(await this.d.blobs.toolInput(media.blob_key)).catch(() => null);
        if (!picture) throw new AppError('not_found', 'This photo could not be read.');
        return picture;
      });
    }
    return this.d.blobs.read(key);
  }

  /**
   * A signed download of the local blob store (S3 serves its own): the key's file by byte ranges,
   * with its file name for the browser's save dialog.
   */
  async signedFile(
    key: string,
    q: { exp?: string; sig?: string; filename?: string; d?: string },
    rangeHeader: string | undefined,
  ): Promise<RangeResponse & { disposition: string | null }> {
    const blobs = this.d.blobs;
    if (!(blobs instanceof LocalBlobStore)) throw new AppError('not_found', 'Not found.');
    const { exp = '', sig = '', filename = '', d = 'attachment' } = q;
    if (!blobs.verify(['get', key, exp, filename, d], sig)) throw forbidden('This download link is not valid.');
    if (Number(exp) * 1000 < Date.now()) throw forbidden('This download link has expired.');
    const file = blobs.objectPath(key);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat) throw new AppError('not_found', 'Not found.');
    const type = MIME[file.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream';
    const out = rangeResponse(rangeHeader, stat.size, type, (r) => fs.createReadStream(file, { start: r.start, end: r.end - 1 }));
    const disposition = filename ? contentDisposition(filename, d === 'inline' ? 'inline' : 'attachment') : null;
    return { ...out, disposition };
  }

  private async existing(key: string, missing: string): Promise<Readable> {
    if (!(await this.d.blobs.exists(key))) throw new AppError('not_found', missing);
    return this.d.blobs.read(key);
  }

  /** At most ON_DEMAND_FFMPEG runs at once in this process, and one run per key however many ask at once. */
  private madeOnce(key: string, make: () => Promise<Buffer>) {
    let run = this.making.get(key);
    if (!run) {
      run = this.onDemand(async () => {
        if (!(await this.d.blobs.exists(key))) await this.d.blobs.put(key, await make(), 'image/webp');
      }).finally(() => this.making.delete(key));
      this.making.set(key, run);
    }
    return run;
  }
}
