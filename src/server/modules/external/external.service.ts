import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pLimit from 'p-limit';
import {
  sendableText,
  canAfford,
  EXTERNAL_LIST_MAX,
  EXTERNAL_READS_AT_ONCE,
  EXTERNAL_READS_PER_MINUTE,
  EXTERNAL_MAX_BYTES,
  EXTERNAL_MAX_SECONDS,
  ingestCost,
  isHttpsUrl,
  linkUrlProblem,
  MSG_EXTERNAL,
  MSG_LIB,
  recogniseYouTube,
  type ExternalAddAnswer,
  type ExternalBulkBody,
  type LinkInfo,
  type LinkType,
  type LinkVideo,
} from '../../../contract';
import type { BlobStore } from '../../adapters/blobs/blobStore';
import { checkHost, RefusedAddressError, type LoopbackAllowList, type Resolver } from '../../adapters/security/addressCheck';
import { LinkToolError, type YtDlp, type YtInfo } from '../../adapters/media/ytdlp';
import { AppError, badRequest, rateLimited } from '../../errors';
import type { MediaRepository, MediaRow } from '../libraries/media.repository';
import type { UserRow } from '../accounts/user.repository';
import type { Access } from '../libraries/access';
import { INGEST_JOB, requireVerified, type LibraryService } from '../libraries/library.service';
import { toMedia } from '../libraries/mediaView';
import type { JobQueue, StorageQuota } from '../ports';
import { blobKeys } from '../storage/blobKeys';

export interface ExternalDeps {
  library: LibraryService;
  access: Access;
  media: MediaRepository;
  blobs: BlobStore;
  queue: JobQueue;
  quota: StorageQuota;
  reader: YtDlp;
  balance(userId: string): Promise<number>;
  /** Sliding-window counters (the rate repository), for the per-user read limit. */
  rates: { count(key: string, windowSeconds: number): Promise<number>; record(key: string): Promise<unknown> };
  /** Tests only: loopback hosts (host:port) link import may reach. */
  allowLoopback: LoopbackAllowList;
  resolve?: Resolver;
  workDir: string;
  /** Seconds a media's duration is checked against after the download (ffprobe). */
  durationOf(file: string): Promise<number | null>;
  /**
   * Seconds of the video at an https link, read from its headers through the egress proxy, or null:
   * for a single video whose listing gives no length (a direct file, a page's <video>, an HLS
   * playlist), so the estimate shown before adding is what indexing will charge.
   */
  durationAt?(url: string): Promise<number | null>;
}

/** A download that did not produce a usable file; ingest marks the media failed with it. */
export class DownloadError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'DownloadError';
  }
}

const SMUGGLE = /#__youtubedl_smuggle=.*$/;

/** The address of a video as the user would open it (yt-dlp's internal fragment removed). */
const cleanUrl = (url: string) => url.replace(SMUGGLE, '');

/**
 * The key a media imported from `url` gets (Media.uniqueId): a YouTube video by its id, anything
 * else by its address, so the same video added again is recognised wherever the link came from.
 */
export function externalUniqueId(url: string): string {
  const yt = recogniseYouTube(url);
  if (yt?.kind === 'video') return `ext1-youtube-${yt.id}`;
  let canonical = cleanUrl(url);
  try {
    const u = new URL(canonical);
    u.hash = '';
    canonical = u.toString();
  } catch {
    // hashed as written
  }
  return `ext1-url-${createHash('sha256').update(canonical).digest('hex').slice(0, 40)}`;
}

const isoOf = (info: YtInfo): string | null => {
  if (typeof info.timestamp === 'number') return new Date(info.timestamp * 1000).toISOString();
  const d = /^(\d{4})(\d{2})(\d{2})$/.exec(info.upload_date ?? '');
  return d ? `${d[1]}-${d[2]}-${d[3]}T00:00:00.000Z` : null;
};

/** A name read from a link, as the API's input guard takes it back (titles may hold control characters). */
const nameOrNull = (s: string | null | undefined) => (s ? sendableText(s).trim() || null : null);

function toVideo(info: YtInfo, fallbackUrl: string): LinkVideo {
  const url = cleanUrl(info.webpage_url ?? (info.url && /^https?:/.test(info.url) ? info.url : fallbackUrl));
  const uniqueId = externalUniqueId(url);
  const thumbs = info.thumbnails?.filter((t) => t.url) ?? [];
  return {
    id: info.id ?? uniqueId,
    title: sendableText(info.title ?? '').trim() || url,
    url,
    duration: typeof info.duration === 'number' && Number.isFinite(info.duration) ? info.duration : null,
    thumbnail: info.thumbnail ?? thumbs[thumbs.length - 1]?.url ?? null,
    description: info.description ? sendableText(info.description, { lines: true }) : null,
    publishedAt: isoOf(info),
    uniqueId,
  };
}

/** Maps yt-dlp's listing to Imported link info (section 3). */
export function toLinkInfo(info: YtInfo, url: string): LinkInfo {
  const isList = info._type === 'playlist' || Array.isArray(info.entries);
  const type: LinkType = !isList ? 'single' : recogniseYouTube(url)?.kind === 'channel' ? 'channel' : 'playlist';
  const videos = isList ? (info.entries ?? []).filter((e): e is YtInfo => Boolean(e)).map((e) => toVideo(e, url)) : [toVideo(info, url)];
  const thumbs = info.thumbnails?.filter((t) => t.url) ?? [];
  return {
    type,
    title: sendableText(info.title ?? '').trim() || videos[0]?.title || url,
    channel: {
      name: nameOrNull(info.channel ?? info.uploader ?? (type === 'single' ? null : (info.title ?? null))),
      thumbnail: type === 'single' ? null : (thumbs[thumbs.length - 1]?.url ?? info.thumbnail ?? null),
    },
    videos,
  };
}

const nameFromUrl = (url: string) => {
  try {
    const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? '');
    return last.replace(/\.[a-z0-9]{2,4}$/i, '') || new URL(url).hostname;
  } catch {
    return url;
  }
};

/**
 * Link import (libraries spec sections 4, 5 and 7): link info through yt-dlp, media created from
 * links, and the download that is the first ingest stage of such media. Every link is checked
 * here (https, public address) before yt-dlp runs, and yt-dlp itself connects only through the
 * egress proxy, which checks every hop again.
 */
export class ExternalService {
  constructor(private readonly d: ExternalDeps) {}

  /** Each read starts a yt-dlp process: a few at once here, and a per-user budget across processes. */
  private readonly reads = pLimit(EXTERNAL_READS_AT_ONCE);

  /** Refused unless https (an http link is told so); the unsupported message when it points somewhere private. */
  async checkUrl(raw: string): Promise<string> {
    const url = raw.trim();
    const problem = linkUrlProblem(url);
    if (problem) throw badRequest(problem);
    const u = new URL(url);
    try {
      await checkHost(u.hostname, Number(u.port || 443), { allow: this.d.allowLoopback, resolve: this.d.resolve });
    } catch (err) {
      if (err instanceof RefusedAddressError) throw badRequest(MSG_EXTERNAL.unsupported);
      throw err;
    }
    return u.toString();
  }

  private async read(user: UserRow, url: string, flat: boolean) {
    const key = `links:${user.id}`;
    if ((await this.d.rates.count(key, 60)) >= EXTERNAL_READS_PER_MINUTE) throw rateLimited(MSG_EXTERNAL.tooManyReads, 60);
    await this.d.rates.record(key);
    fs.mkdirSync(this.d.workDir, { recursive: true });
    try {
      return await this.reads(() => this.d.reader.info(url, this.d.workDir, { flat, maxEntries: EXTERNAL_LIST_MAX }));
    } catch (err) {
      if (err instanceof LinkToolError) throw badRequest(MSG_EXTERNAL.unsupported);
      throw err;
    }
  }

  /** Link info of any link: one video, or the videos of a playlist or channel (flat). */
  async peek(user: UserRow, raw: string): Promise<LinkInfo> {
    const url = await this.checkUrl(raw);
    const listing = await this.read(user, url, true);
    return this.withLength(toLinkInfo(listing, url), listing);
  }

  /**
   * A single video's length when its listing gives none (yt-dlp reads none from a direct file, a
   * page's <video> or an HLS playlist): read from the file's own headers, the length indexing will
   * charge for, so the estimate is the charge. Left unknown when it cannot be read.
   */
  private async withLength(info: LinkInfo, listing: YtInfo): Promise<LinkInfo> {
    const video = info.type === 'single' && info.videos.length === 1 ? info.videos[0]! : null;
    if (!video || video.duration !== null || !this.d.durationAt) return info;
    const target = listing.url && isHttpsUrl(listing.url) ? listing.url : video.url;
    const duration = await this.reads(async () => {
      try {
        await this.checkUrl(target);
      } catch {
        return null;
      }
      return this.d.durationAt!(target);
    });
    return duration === null ? info : { ...info, videos: [{ ...video, duration }] };
  }

  /** The videos of a playlist or channel link. */
  async unwind(user: UserRow, raw: string): Promise<LinkInfo> {
    const info = await this.peek(user, raw);
    if (info.type === 'single') throw badRequest(MSG_EXTERNAL.unsupported);
    return info;
  }

  private async destination(user: UserRow, libraryId: string, folderId: string) {
    requireVerified(user);
    const lib = await this.d.access.library(user.id, libraryId);
    if (lib.is_read_only || lib.is_demo) throw new AppError('forbidden', MSG_LIB.readOnlyLibrary);
    const folder = await this.d.library.folderOf(libraryId, folderId);
    const limitHours = await this.d.quota.limitHours(user.id);
    if ((await this.d.media.usedSeconds(user.id)) >= limitHours * 3600) throw new AppError('forbidden', MSG_LIB.storageLimit(limitHours));
    return folder;
  }

  private async create(
    user: UserRow,
    libraryId: string,
    folderId: string,
    url: string,
    name: string,
    type: LinkType,
    duration: number | null,
  ) {
    const uniqueId = externalUniqueId(url);
    for (const dup of await this.d.media.duplicateOf(folderId, uniqueId)) {
      if (dup.status !== 'empty') throw new AppError('conflict', MSG_EXTERNAL.duplicate, { mediaId: dup.id });
      await this.d.library.purgeEmpty(dup);
    }
    const id = randomUUID();
    const cleanName = name.trim().replace(/[/\\]/g, '_').slice(0, 250) || nameFromUrl(url);
    const row = await this.d.media.insert({
      id,
      user_id: user.id,
      library_id: libraryId,
      folder_id: folderId,
      unique_id: uniqueId,
      status: 'queued',
      kind: 'video',
      name: cleanName,
      filename: `${cleanName}.mp4`,
      // Where the download will be stored; the extension is corrected once the file is known.
      blob_key: blobKeys.original(user.id, id, 'mp4'),
      size_bytes: 0,
      duration,
      origin: JSON.stringify({ source: 'external', type, url }),
    });
    if (!row) throw new AppError('conflict', MSG_EXTERNAL.duplicate);
    await this.d.queue.send(INGEST_JOB, { mediaId: id }, { singletonKey: id });
    return row;
  }

  /** One link, one video: read first, so a playlist or an unreadable link is refused at once. */
  async add(user: UserRow, libraryId: string, folderId: string, raw: string): Promise<ExternalAddAnswer> {
    const folder = await this.destination(user, libraryId, folderId);
    const url = await this.checkUrl(raw);
    const listing = await this.read(user, url, true);
    const info = await this.withLength(toLinkInfo(listing, url), listing);
    if (info.type !== 'single' || info.videos.length !== 1) throw badRequest(MSG_EXTERNAL.playlistNeedsChoice);
    const video = info.videos[0]!;
    if (video.duration !== null) {
      if (video.duration > EXTERNAL_MAX_SECONDS) throw badRequest(MSG_EXTERNAL.tooLong);
      const cost = ingestCost(video.duration);
      const balance = await this.d.balance(user.id);
      if (!canAfford(balance, cost)) throw new AppError('payment_required', MSG_EXTERNAL.notEnoughCredits, { cost, balance });
    }
    const row = await this.create(user, libraryId, folder.id, url, video.title, 'single', video.duration);
    return { media: [toMedia(row)], failed: [] };
  }

  /** Up to one batch of chosen videos; each item succeeds or fails on its own. */
  async bulk(user: UserRow, libraryId: string, folderId: string, body: ExternalBulkBody): Promise<ExternalAddAnswer> {
    const folder = await this.destination(user, libraryId, folderId);
    const answer: ExternalAddAnswer = { media: [], failed: [] };
    for (const item of body.items) {
      try {
        const url = await this.checkUrl(item.url);
        answer.media.push(toMedia(await this.create(user, libraryId, folder.id, url, item.name, body.type ?? 'playlist', null)));
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        answer.failed.push({ url: item.url, message: err.message });
      }
    }
    return answer;
  }

  /**
   * The download stage of ingest: yt-dlp fetches the video into `work`, it is stored as the
   * media's original, and the normal pipeline runs on it. Throws DownloadError with the reason.
   */
  async download(media: MediaRow, work: string, onProgress: (f: number) => void): Promise<MediaRow> {
    try {
      return await this.fetchOriginal(media, work, onProgress);
    } catch (err) {
      const reason = err instanceof LinkToolError ? err.detail : err instanceof Error ? err.message : String(err);
      throw new DownloadError(MSG_EXTERNAL.downloadFailed(reason));
    }
  }

  private async fetchOriginal(media: MediaRow, work: string, onProgress: (f: number) => void): Promise<MediaRow> {
    const url = media.origin.url ?? '';
    await this.checkUrl(url);
    const dir = path.join(work, 'download');
    fs.rmSync(dir, { recursive: true, force: true });
    const { file, info } = await this.d.reader.download(url, dir, onProgress);
    const size = fs.statSync(file).size;
    if (size > EXTERNAL_MAX_BYTES) throw new Error(MSG_EXTERNAL.tooLarge);
    const duration = await this.d.durationOf(file);
    if (duration === null) throw new Error('the link did not give a playable video');
    if (duration > EXTERNAL_MAX_SECONDS) throw new Error(MSG_EXTERNAL.tooLong);
    const ext = path.extname(file).slice(1).toLowerCase() || 'mp4';
    const key = blobKeys.original(media.user_id, media.id, ext);
    await this.d.blobs.put(key, fs.createReadStream(file), ext === 'webm' ? 'video/webm' : 'video/mp4');
    fs.rmSync(dir, { recursive: true, force: true });
    const name = media.name || info.title?.trim() || nameFromUrl(url);
    const updated = await this.d.media.update(media.id, { blob_key: key, size_bytes: size, filename: `${name}.${ext}`, name, duration });
    return updated ?? media;
  }
}
