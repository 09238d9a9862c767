import {
  DEFAULT_LIBRARY_NAME,
  FAILED_STATUSES,
  FOLDER_NAME_MAX,
  LIBRARY_NAME_MAX,
  MSG,
  MSG_FOLDER,
  MSG_LIB,
  type BulkDeleteAnswer,
  type Folder,
  type FolderDeleteAnswer,
  type FolderResponse,
  type Library,
  type Media,
  type PreviewTokenAnswer,
  type RetryAllAnswer,
  type RetryAnswer,
} from '../../../contract';
import type { BlobStore } from '../../adapters/blobs/blobStore';
import type { TokenSigner } from '../../adapters/security/tokens';
import { AppError, badRequest } from '../../errors';
import type { FolderRow, LibraryRepository, LibraryRow } from './library.repository';
import type { MediaRepository, MediaRow, MediaSort } from './media.repository';

export type { MediaSort } from './media.repository';
import type { UploadRepository } from '../upload/upload.repository';
import type { UserRow } from '../accounts/user.repository';
import { toLibrary, toMedia } from './mediaView';
import type { IndexRepository } from '../ingest/index.repository';
import type { Access } from './access';
import type { JobQueue } from '../ports';
import { blobKeys } from '../storage/blobKeys';

export const INGEST_JOB = 'media.ingest';
export const PREVIEW_TOKEN_TTL_SECONDS = 3 * 3600;

export interface DemoItem {
  key: string;
  filename: string;
  size: number;
  uniqueId: string;
}

export interface LibraryDeps {
  access: Access;
  index: Pick<IndexRepository, 'shots'>;
  libraries: LibraryRepository;
  media: MediaRepository;
  uploads: UploadRepository;
  blobs: BlobStore;
  queue: JobQueue;
  tokens: TokenSigner;
  demoItems: () => DemoItem[];
}

export const requireVerified = (user: UserRow) => {
  if (!user.is_verified) throw new AppError('email_not_verified', MSG.verifyToAdd);
};

const cleanName = (raw: unknown, fallback?: string) => {
  const name = typeof raw === 'string' ? raw.trim() : '';
  if (!name) {
    if (fallback !== undefined) return fallback;
    throw badRequest('name must not be empty');
  }
  if (name.length > LIBRARY_NAME_MAX) throw badRequest(`name must be at most ${LIBRARY_NAME_MAX} characters`);
  return name;
};

const folderName = (raw: string) => {
  const name = raw.trim();
  if (!name) throw badRequest(MSG_FOLDER.nameEmpty);
  if (name.length > FOLDER_NAME_MAX) throw badRequest(MSG_FOLDER.nameTooLong);
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) throw badRequest(MSG_FOLDER.nameInvalid);
  return name;
};

const toFolder = (r: FolderRow, contents?: Folder['contents']): Folder => ({
  _id: r.id,
  name: r.name,
  parentId: r.parent_id,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
  ...(contents ? { contents } : {}),
});

/** Library, folder and media rules (libraries spec sections 4–6); ownership is checked on every call. */
export class LibraryService {
  constructor(private readonly d: LibraryDeps) {}

  private async view(rows: LibraryRow[]): Promise<Library[]> {
    const aggs = await this.d.libraries.aggregates(rows.map((r) => r.id));
    return rows.map((r) => toLibrary(r, aggs.get(r.id)!));
  }

  async folderOf(libraryId: string, folderId: string) {
    const folder = await this.d.libraries.folder(libraryId, folderId);
    if (!folder) throw new AppError('not_found', MSG_FOLDER.notFound);
    return folder;
  }

  /** A folder below the root of a library the user may change. */
  private async changeableFolder(user: UserRow, libraryId: string, folderId: string) {
    const lib = await this.d.access.library(user.id, libraryId, 'write');
    const folder = await this.folderOf(libraryId, folderId);
    if (folder.parent_id === null || folder.id === lib.root_folder_id) throw new AppError('forbidden', MSG_FOLDER.rootImmutable);
    return folder;
  }

  private async requireFreeName(libraryId: string, parentId: string, name: string, self?: string) {
    const twin = await this.d.libraries.siblingNamed(libraryId, parentId, name);
    if (twin && twin.id !== self) throw new AppError('conflict', MSG_FOLDER.nameTaken(name));
  }

  async createFolder(user: UserRow, libraryId: string, body: { name: string; parentId?: string }): Promise<Folder> {
    requireVerified(user);
    const lib = await this.d.access.library(user.id, libraryId, 'write');
    const name = folderName(body.name);
    const parent = await this.folderOf(libraryId, body.parentId ?? lib.root_folder_id!);
    await this.requireFreeName(libraryId, parent.id, name);
    return toFolder(await this.d.libraries.createFolder(libraryId, parent.id, name), { folders: 0, files: 0 });
  }

  async renameFolder(user: UserRow, libraryId: string, folderId: string, raw: string): Promise<Folder> {
    const folder = await this.changeableFolder(user, libraryId, folderId);
    const name = folderName(raw);
    if (name === folder.name) return toFolder(folder);
    await this.requireFreeName(libraryId, folder.parent_id!, name, folder.id);
    return toFolder(await this.d.libraries.renameFolder(folder.id, name));
  }

  /** Deletes a folder; one that holds anything only with `recursive`, and then with all it holds. */
  async deleteFolder(user: UserRow, libraryId: string, folderId: string, recursive: boolean): Promise<FolderDeleteAnswer> {
    const folder = await this.changeableFolder(user, libraryId, folderId);
    const ids = await this.d.libraries.subtreeIds(folder.id);
    const media = await this.d.media.inFolders(ids);
    const holds = ids.length > 1 || media.some((m) => m.status !== 'empty');
    if (holds && !recursive) throw new AppError('conflict', MSG_FOLDER.notEmpty);
    const freedBytes = await this.purgeMedia(media);
    await this.d.libraries.deleteFolder(folder.id);
    return { ok: true, deletedFolders: ids.length, deletedMedia: media.filter((m) => m.status !== 'empty').length, freedBytes };
  }

  /** Removes an `empty` media (an abandoned upload) so a new upload of the same file can proceed. */
  async purgeEmpty(m: MediaRow) {
    if (m.status === 'empty') await this.purgeMedia([m]);
  }

  /** The described shots of a media of the user's library (the moment viewer's summary). */
  async shotDescriptions(userId: string, libraryId: string, mediaId: string) {
    const media = await this.d.access.media(userId, libraryId, mediaId);
    return (await this.d.index.shots(media.id))
      .filter((s) => s.description)
      .map((s) => ({ start: s.start, end: s.end, desc: s.description }));
  }

  /** A media of the user's library, for routes that serve its files (see Access.media). */
  ownedMedia(userId: string, libraryId: string, mediaId: string) {
    return this.d.access.media(userId, libraryId, mediaId);
  }

  /** Every account gets a default library and a read-only demo library holding the shipped samples. */
  async provisionUser(user: UserRow) {
    const existing = await this.d.libraries.listByUser(user.id);
    if (!existing.some((l) => l.is_default)) await this.d.libraries.create({ userId: user.id, name: 'My Library', isDefault: true });
    if (!existing.some((l) => l.is_demo)) {
      const demo = await this.d.libraries.create({ userId: user.id, name: 'Welcome Library', isDemo: true, isReadOnly: true });
      for (const item of this.d.demoItems()) {
        const m = await this.d.media.insert({
          user_id: user.id,
          library_id: demo.id,
          folder_id: demo.root_folder_id!,
          unique_id: item.uniqueId,
          status: 'queued',
          kind: 'video',
          name: item.filename.replace(/\.[^.]+$/, ''),
          filename: item.filename,
          blob_key: item.key,
          blob_shared: true,
          size_bytes: item.size,
          origin: JSON.stringify({ source: 'user', type: 'demo' }),
        });
        if (m) await this.d.queue.send(INGEST_JOB, { mediaId: m.id }, { singletonKey: m.id });
      }
    }
  }

  async list(user: UserRow) {
    return this.view(await this.d.libraries.listByUser(user.id));
  }

  async get(user: UserRow, id: string) {
    return (await this.view([await this.d.access.library(user.id, id)]))[0]!;
  }

  async create(user: UserRow, name: unknown) {
    requireVerified(user);
    const row = await this.d.libraries.create({ userId: user.id, name: cleanName(name, DEFAULT_LIBRARY_NAME) });
    return (await this.view([row]))[0]!;
  }

  async rename(user: UserRow, id: string, name: unknown) {
    const lib = await this.d.access.library(user.id, id, 'write');
    const clean = cleanName(name);
    const row = clean === lib.name ? lib : await this.d.libraries.rename(id, clean);
    return (await this.view([row]))[0]!;
  }

  async remove(user: UserRow, id: string) {
    const lib = await this.d.access.library(user.id, id);
    if (lib.is_default || lib.is_demo || lib.is_read_only) throw new AppError('forbidden', MSG_LIB.cannotDeleteLibrary);
    const media = await this.d.media.byStatus(id, [
      'uploading',
      'queued',
      'processing',
      'completed',
      'errored',
      'cancelled',
      'empty',
      'invalid',
      'failed',
    ]);
    const freed = await this.purgeMedia(media);
    await this.d.libraries.delete(id);
    return { ok: true as const, freedBytes: freed };
  }

  async previewToken(user: UserRow, id: string): Promise<PreviewTokenAnswer> {
    await this.d.access.library(user.id, id);
    const previewToken = await this.d.tokens.signPreview(user.id, id, PREVIEW_TOKEN_TTL_SECONDS);
    return { previewToken, expiresAt: new Date(Date.now() + PREVIEW_TOKEN_TTL_SECONDS * 1000).toISOString() };
  }

  async folder(
    user: UserRow,
    libraryId: string,
    folderId: string | undefined,
    sort: MediaSort,
    direction: 1 | -1,
  ): Promise<FolderResponse> {
    const lib = await this.d.access.library(user.id, libraryId);
    const folder = await this.folderOf(libraryId, folderId ?? lib.root_folder_id!);
    const [ancestors, subFolders, contents, files] = await Promise.all([
      this.d.libraries.ancestors(folder.id),
      this.d.libraries.subFolders(libraryId, folder.id),
      this.d.libraries.contentsOfChildren(folder.id),
      this.d.media.listFolder(folder.id, sort, direction),
    ]);
    return {
      folder: toFolder(folder),
      ancestors: ancestors.map((a) => toFolder(a)),
      subFolders: subFolders.map((r) => toFolder(r, contents.get(r.id) ?? { folders: 0, files: 0 })),
      files: files.map(toMedia),
    };
  }

  /** The folder's media in positions [start, end) of the given order: refreshes a visible window. */
  async range(
    user: UserRow,
    libraryId: string,
    folderId: string | undefined,
    sort: MediaSort,
    direction: 1 | -1,
    start: number,
    end: number,
  ) {
    const lib = await this.d.access.library(user.id, libraryId);
    const folder = await this.folderOf(libraryId, folderId ?? lib.root_folder_id!);
    if (end < start || end - start > 500) throw badRequest('range must cover 0 to 500 items');
    return (await this.d.media.listFolder(folder.id, sort, direction, { start, end })).map(toMedia);
  }

  async getMedia(user: UserRow, libraryId: string, mediaId: string): Promise<Media> {
    return toMedia(await this.d.access.media(user.id, libraryId, mediaId));
  }

  async renameMedia(user: UserRow, libraryId: string, mediaId: string, name: unknown) {
    const m = await this.d.access.media(user.id, libraryId, mediaId, { access: 'write' });
    const clean = cleanName(name);
    return toMedia(clean === m.name ? m : (await this.d.media.update(m.id, { name: clean }))!);
  }

  /** Removes rows and their bytes; shared demo blobs stay. Returns the bytes freed. */
  private async purgeMedia(rows: MediaRow[]) {
    let freed = 0;
    for (const m of rows) {
      for (const u of await this.d.uploads.openForMedia(m.id))
        await this.d.blobs.abortMultipart({ uploadId: u.id, key: u.blob_key, storeUploadId: u.store_upload_id });
    }
    const deleted = await this.d.media.deleteMany(rows.map((r) => r.id));
    for (const m of deleted) {
      if (m.blob_shared) continue;
      if (m.status !== 'empty' && m.status !== 'uploading') freed += Number(m.size_bytes);
      await this.d.blobs.delete(m.blob_key).catch(() => undefined);
      await this.d.blobs.deletePrefix(blobKeys.derived(m.id)).catch(() => undefined);
    }
    return freed;
  }

  async deleteMedia(user: UserRow, libraryId: string, mediaId: string) {
    const m = await this.d.access.media(user.id, libraryId, mediaId, { access: 'write' });
    return { ok: true as const, freedBytes: await this.purgeMedia([m]) };
  }

  async bulkDelete(user: UserRow, libraryId: string, mediaIds: string[]): Promise<BulkDeleteAnswer> {
    await this.d.access.library(user.id, libraryId, 'write');
    const ids = [...new Set(mediaIds)];
    const found = (await this.d.media.manyInLibrary(libraryId, ids)).filter((m) => m.status !== 'empty');
    const foundIds = new Set(found.map((m) => m.id));
    const failed = ids.filter((id) => !foundIds.has(id)).map((mediaId) => ({ mediaId, message: MSG_LIB.mediaNotFound }));
    const freedBytes = await this.purgeMedia(found);
    return { deleted: found.length, failed, freedBytes };
  }

  async deleteErrored(user: UserRow, libraryId: string): Promise<BulkDeleteAnswer> {
    await this.d.access.library(user.id, libraryId, 'write');
    const rows = await this.d.media.byStatus(libraryId, [...FAILED_STATUSES]);
    return { deleted: rows.length, failed: [], freedBytes: await this.purgeMedia(rows) };
  }

  async retry(user: UserRow, libraryId: string, mediaId: string): Promise<RetryAnswer> {
    const m = await this.d.access.media(user.id, libraryId, mediaId, { access: 'write' });
    return this.retryRow(m);
  }

  private async retryRow(m: MediaRow): Promise<RetryAnswer> {
    if (!['errored', 'failed'].includes(m.status)) return { media: toMedia(m), error: MSG_LIB.notRetryable };
    // A media imported from a link is downloaded again by its retry; an upload needs its file.
    if (m.origin.source !== 'external' && !(await this.d.blobs.exists(m.blob_key)))
      return { media: toMedia(m), error: 'The uploaded file is missing: please upload it again.' };
    // Back to processing at once (section 4), not queued: the ingest job resumes a processing media.
    const row = await this.d.media.transition(m.id, ['errored', 'failed'], { status: 'processing', progress: 0, error_message: null });
    if (!row) return { media: toMedia(m), error: MSG_LIB.notRetryable };
    await this.d.queue.send(INGEST_JOB, { mediaId: m.id }, { singletonKey: m.id });
    return { media: toMedia(row), error: null };
  }

  async retryFailed(user: UserRow, libraryId: string): Promise<RetryAllAnswer> {
    await this.d.access.library(user.id, libraryId, 'write');
    const rows = await this.d.media.byStatus(libraryId, ['errored', 'failed']);
    const failed: RetryAllAnswer['failed'] = [];
    let retried = 0;
    for (const m of rows) {
      const r = await this.retryRow(m);
      if (r.error) failed.push({ mediaId: m.id, message: r.error });
      else retried++;
    }
    return { retried, failed };
  }

  /** Abandons unfinished uploads (all, or the given ones): their bytes go, the media becomes `empty`. */
  async clearUploads(user: UserRow, libraryId: string, mediaIds?: string[]) {
    await this.d.access.library(user.id, libraryId);
    const rows = (
      mediaIds ? await this.d.media.manyInLibrary(libraryId, mediaIds) : await this.d.media.byStatus(libraryId, ['uploading'])
    ).filter((m) => m.status === 'uploading');
    for (const m of rows) await this.abandonUpload(m);
    return { cleared: rows.map((m) => m.id) };
  }

  async abandonUpload(m: MediaRow) {
    for (const u of await this.d.uploads.openForMedia(m.id)) {
      await this.d.blobs.abortMultipart({ uploadId: u.id, key: u.blob_key, storeUploadId: u.store_upload_id });
      await this.d.uploads.delete(u.id);
    }
    await this.d.media.transition(m.id, ['uploading'], { status: 'empty', progress: 0 });
  }

  async originalUrl(user: UserRow, libraryId: string, mediaId: string, filename?: string) {
    const m = await this.d.access.media(user.id, libraryId, mediaId);
    if (m.status === 'uploading') throw new AppError('conflict', 'This file is still uploading.');
    const name = (filename?.trim() || m.filename).replace(/[/\\\r\n"]/g, '_').slice(0, 200);
    return { url: await this.d.blobs.downloadUrl(m.blob_key, { filename: name, expiresInSeconds: 300 }) };
  }
}
