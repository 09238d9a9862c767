import {
  API,
  type BulkDeleteAnswer,
  type Folder,
  type FolderCreateBody,
  type FolderDeleteAnswer,
  type FolderResponse,
  type Library,
  type Media,
  type MediaRangeQuery,
  type MediaSortValue,
  type PreviewTokenAnswer,
  type RetryAllAnswer,
  type RetryAnswer,
  type UploadFinishBody,
  type UploadStartAnswer,
  type UploadStartBody,
} from '../../contract';
import type { ApiClient } from './client';

/**
 * Typed library, folder, media and upload calls (libraries spec section 7). All need a session.
 * Bodies and queries are the types of contract/schemas/library.ts, which the server validates.
 */
export function createLibraryApi(client: ApiClient) {
  const get = <T>(path: string, query?: Record<string, string | number | undefined>, signal?: AbortSignal) =>
    client.request<T>(path, { method: 'GET', auth: 'required', query, signal });
  const send = <T>(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown, query?: Record<string, string | boolean>) =>
    client.request<T>(path, { method, body: body ?? (method === 'DELETE' ? undefined : {}), auth: 'required', query });

  return {
    list: () => get<Library[]>(API.libraries),
    create: (name: string) => send<Library>('POST', API.libraries, { name, settings: { v1: {} } }),
    get: (id: string) => get<Library>(API.library(id)),
    rename: (id: string, name: string) => send<Library>('PATCH', API.library(id), { name }),
    remove: (id: string) => send<{ ok: true; freedBytes: number }>('DELETE', API.library(id)),
    previewToken: (id: string) => get<PreviewTokenAnswer>(API.libraryPreviewToken(id)),

    folder: (libraryId: string, folderId?: string, sort?: MediaSortValue, signal?: AbortSignal) =>
      get<FolderResponse>(API.folder(libraryId, folderId), { sort }, signal),
    createFolder: (libraryId: string, body: FolderCreateBody) => send<Folder>('POST', API.folderCreate(libraryId), body),
    renameFolder: (libraryId: string, folderId: string, name: string) => send<Folder>('PATCH', API.folder(libraryId, folderId), { name }),
    /** `recursive`: delete what the folder holds with it (the server refuses a non-empty folder without it). */
    deleteFolder: (libraryId: string, folderId: string, recursive: boolean) =>
      send<FolderDeleteAnswer>('DELETE', API.folder(libraryId, folderId), undefined, recursive ? { recursive: true } : undefined),
    mediaRange: (libraryId: string, q: MediaRangeQuery & { sort?: MediaSortValue }) => get<Media[]>(API.mediaRange(libraryId), q),
    media: (libraryId: string, mediaId: string) => get<Media>(API.media(libraryId, mediaId)),
    renameMedia: (libraryId: string, mediaId: string, name: string) => send<Media>('PATCH', API.media(libraryId, mediaId), { name }),
    deleteMedia: (libraryId: string, mediaId: string) => send<{ ok: true; freedBytes: number }>('DELETE', API.media(libraryId, mediaId)),
    bulkDelete: (libraryId: string, mediaIds: string[]) => send<BulkDeleteAnswer>('POST', API.mediaBulkDelete(libraryId), { mediaIds }),
    deleteErrored: (libraryId: string) => send<BulkDeleteAnswer>('POST', API.mediaDeleteErrored(libraryId)),
    retry: (libraryId: string, mediaId: string) => send<RetryAnswer>('POST', API.mediaRetry(libraryId, mediaId)),
    retryFailed: (libraryId: string) => send<RetryAllAnswer>('POST', API.mediaRetryFailed(libraryId)),
    clearUploads: (libraryId: string, mediaIds?: string[]) =>
      send<{ cleared: string[] }>('POST', API.uploadsClear(libraryId), mediaIds ? { mediaIds } : {}),
    originalUrl: (libraryId: string, mediaId: string, filename?: string) =>
      get<{ url: string }>(API.mediaOriginal(libraryId, mediaId), { filename }),

    uploadStart: (libraryId: string, folderId: string, body: UploadStartBody) =>
      send<UploadStartAnswer>('POST', API.uploadStart(libraryId, folderId), body),
    uploadFinish: (libraryId: string, mediaId: string, opaqueData: string) =>
      send<Media>('POST', API.uploadFinish(libraryId, mediaId), { opaqueData } satisfies UploadFinishBody),
  };
}

export type LibraryApi = ReturnType<typeof createLibraryApi>;
