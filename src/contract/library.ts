/** Libraries, folders, media and upload: entities, constants and pure helpers (libraries spec 3, 4, 5, 9). */
import type { TranscriptLine } from './transcripts';

export type MediaStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'errored' | 'cancelled' | 'empty' | 'invalid' | 'failed';

export const MEDIA_STATUS_LABEL: Partial<Record<MediaStatus, string>> = {
  errored: 'Processing failed',
  empty: 'Upload did not complete',
  uploading: 'Uploading',
  processing: 'Indexing',
  queued: 'Queued',
  invalid: 'Invalid file',
};

/** Values of the table's status filter. */
export const TABLE_STATUS_FILTER: readonly MediaStatus[] = ['uploading', 'queued', 'processing', 'completed', 'errored', 'cancelled'];
export const FAILED_STATUSES: readonly MediaStatus[] = ['errored', 'invalid', 'failed'];

export interface LibraryStats {
  count: number;
  /** Bytes. */
  mediaSize: number;
  /** Seconds. */
  mediaDuration: number;
  /** `photos`: how many of `count` are photos (images), beside the spec's `completed`. */
  breakdown: { completed: { count: number }; photos?: { count: number } };
  /** Not in the spec (issue 37): completed media whose transcript has words; search defaults to seen and said together where any has. */
  withSpeech: number;
}

export interface Library {
  _id: string;
  libraryId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  isDefault: boolean;
  isDemo: boolean;
  isReadOnly: boolean;
  latestMediaIds: string[];
  /**
   * The latest media whose poster exists (hasPoster), which the library's card shows; null while none
   * has one (the spec's card takes latestMediaIds' first, which has none while it is indexed: a 404).
   */
  coverMediaId: string | null;
  rootFolderId: string;
  stats: LibraryStats;
  system: { default: boolean; demo: boolean; readonly: boolean };
  settings: { v1: Record<string, unknown> };
  data: { _id: string; name: string; stats: { count: number } };
}

export type OriginSource = 'external' | 'user';

export interface Media {
  _id: string;
  uniqueId: string;
  libraryId: string;
  folderId: string;
  status: MediaStatus;
  progress: number;
  isUploading: boolean;
  createdAt: string;
  updatedAt: string;
  origin: { source: OriginSource; type?: string; url?: string };
  /**
   * preview: the HLS preview plays. source: API.mediaSource serves an MP4/MOV the browser may demux
   * itself (for frame-exact timeline thumbnails); the codec may still be one WebCodecs cannot decode.
   * thumbnailTrack: API.mediaThumbnailTrack serves the keyframes as a small H.264 MP4 (the timeline's
   * keyframe thumbnails, whatever the original's container, codec or rotation).
   */
  capabilities: { preview: boolean; source: boolean; thumbnailTrack: boolean };
  error: { message: string } | null;
  kind: 'video' | 'image';
  /** The thumbnail strip (API.mediaStrip): `count` frames `width` × `height`, one every `interval` s. Null until made. */
  thumbnails: { interval: number; count: number; width: number; height: number } | null;
  /** Features the index could not compute for this media (a model was missing), by name. */
  missingFeatures: string[];
  metadata: {
    name: string;
    filename: string;
    fileMappings: { originalMedia: string };
    /** frameRate: frames per second of the video stream (0 for images and unknown). */
    video: { duration: number; width: number; height: number; frameCount: number; frameRate: number; originalMediaSize: number };
  };
}

export interface Folder {
  _id: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * Not in the spec's entity: what the folder holds at any depth (folders, visible media), given on
   * the subFolders of a folder read, so a folder's card can say it and its delete can warn.
   */
  contents?: FolderContents;
}

export interface FolderContents {
  folders: number;
  files: number;
}

export interface FolderResponse {
  folder: Folder;
  /** Not in the spec's answer: the folders above this one, root first (empty for the root), for the breadcrumb. */
  ancestors: Folder[];
  /** Sorted by creation, oldest first (section 4). */
  subFolders: Folder[];
  files: Media[];
}

// Folder calls. The spec shows only the folder read (section 7); these write calls are ours:
//   POST   API.folderCreate(libraryId)            body FolderCreateBody  -> 201 Folder
//   PATCH  API.folder(libraryId, folderId)        body FolderRenameBody  -> Folder
//   DELETE API.folder(libraryId, folderId)        query FolderDeleteQuery -> FolderDeleteAnswer
// A folder that holds anything is deleted only with `recursive=true`, and then everything in it goes
// with it (media, their files and indexes); without it the call answers 409 MSG_FOLDER.notEmpty. The
// app asks for confirmation, naming what will go, before it sends `recursive=true`. The root folder
// (the library itself) cannot be renamed or deleted here; read-only and demo libraries refuse all three.

export const FOLDER_NAME_MAX = 120;

// Request shapes (FolderCreateBody, FolderRenameBody, FolderDeleteQuery) are schemas/library.ts.
export interface FolderDeleteAnswer {
  ok: true;
  deletedFolders: number;
  deletedMedia: number;
  /** Bytes of storage freed. */
  freedBytes: number;
}

/** Strings of the folder calls and screens. */
export const MSG_FOLDER = {
  notFound: 'Folder not found',
  nameEmpty: 'Folder name must not be empty.',
  nameTooLong: `Folder name must be at most ${FOLDER_NAME_MAX} characters.`,
  nameInvalid: 'Folder name must not contain control characters.',
  nameTaken: (name: string) => `A folder named "${name}" already exists here.`,
  rootImmutable: 'The top folder of a library is the library itself: rename or delete the library instead.',
  notEmpty: 'This folder is not empty: confirm that everything in it is deleted with it.',
  created: 'Folder created',
  renamed: 'Folder renamed',
  deleted: 'Folder deleted',
  createFailed: 'Failed to create folder',
  renameFailed: 'Failed to rename folder',
  deleteFailed: 'Failed to delete folder',
  empty: 'This folder is empty',
} as const;

/** "3 videos, 1 folder" (what a folder holds), or null when it holds nothing. */
export function describeFolderContents(c: FolderContents | undefined): string | null {
  if (!c || (!c.files && !c.folders)) return null;
  const parts: string[] = [];
  if (c.files) parts.push(`${c.files} ${c.files === 1 ? 'file' : 'files'}`);
  if (c.folders) parts.push(`${c.folders} ${c.folders === 1 ? 'folder' : 'folders'}`);
  return parts.join(', ');
}

export const DEFAULT_LIBRARY_NAME = 'My New Library';
export const DEFAULT_IMPORT_COLLECTION_NAME = 'Unnamed Media Collection';
export const WELCOME_LIBRARY_NAME = 'Welcome Library';
export const LIBRARY_NAME_MAX = 120;

// Upload (section 9)
export const UPLOAD_CHUNK_SIZE = 20_971_520;
export const UPLOAD_PART_CONCURRENCY = 8;
export const UPLOAD_PART_ATTEMPTS = 3;
export const UPLOAD_FILE_CONCURRENCY = 2;
export const FINGERPRINT_SAMPLE_BYTES = 8192;
/** Largest single file accepted (a server choice, not a spec number). */
export const UPLOAD_MAX_BYTES = 50 * 1024 ** 3;
export const UPLOAD_SHOWN_PROGRESS_CAP = 0.99;
export const MEDIA_REFRESH_MS = 30_000;
export const RETRY_ALL_LOCK_MS = 5000;
export const PREVIEW_TOKEN_FALLBACK_MS = 3 * 3600 * 1000;
/**
 * A photo opened (API.mediaPicture) is shown at most this many pixels on its longer side: sharp on
 * a large screen, and a few hundred kilobytes instead of a camera's many megabytes.
 */
export const PHOTO_PICTURE_MAX_SIDE = 2048;

export const partCount = (size: number) => Math.max(1, Math.ceil(size / UPLOAD_CHUNK_SIZE));
export const partSize = (size: number, partNumber: number, parts = partCount(size)) =>
  partNumber < parts ? UPLOAD_CHUNK_SIZE : size - (parts - 1) * UPLOAD_CHUNK_SIZE;

export interface UploadStartAnswer {
  media: Media;
  partUrls: string[];
  opaqueData: string;
}
// UploadStartBody and UploadFinishBody are schemas/library.ts.

export interface BulkDeleteAnswer {
  deleted: number;
  failed: Array<{ mediaId: string; message: string }>;
  /** Bytes of storage freed. */
  freedBytes: number;
}
export interface RetryAnswer {
  media: Media | null;
  error: string | null;
}
export interface RetryAllAnswer {
  retried: number;
  failed: Array<{ mediaId: string; message: string }>;
}
export interface PreviewTokenAnswer {
  previewToken: string;
  expiresAt: string;
}

// Accepted types (section 5). Upload flow: video mp4/mov/webm (+ mkv via the file input) and images.
export const VIDEO_EXTENSIONS = [
  'mp4',
  'mov',
  'mkv',
  'webm',
  'avi',
  'm4v',
  'mpg',
  'mpeg',
  'wmv',
  'flv',
  '3gp',
  'ogv',
  'ts',
  'mts',
] as const;
export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic', 'heif', 'bmp', 'tif', 'tiff', 'avif', 'svg'] as const;
export const FILE_INPUT_ACCEPT = 'video/*,.mkv,.mov';
export const UNSUPPORTED_FILE_TYPE = 'Unsupported file type';

export const extensionOf = (filename: string) => {
  const m = /\.([a-z0-9]+)$/i.exec(filename.trim());
  return m ? m[1]!.toLowerCase() : '';
};
export const mediaKindOf = (filename: string, mime = ''): 'video' | 'image' | null => {
  const ext = extensionOf(filename);
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(ext)) return 'video';
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(ext)) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('image/')) return 'image';
  return null;
};

/**
 * The fingerprint both sides compute: size plus SHA-256 of the first and last 8192 bytes. `digestHex`
 * is the hex SHA-256 of head ‖ tail, so this stays free of any crypto implementation.
 */
export const fingerprintId = (size: number, digestHex: string) => `fp1-${size}-${digestHex}`;
export const fingerprintRanges = (size: number) => ({
  head: [0, Math.min(FINGERPRINT_SAMPLE_BYTES, size)] as const,
  tail: [Math.max(0, size - FINGERPRINT_SAMPLE_BYTES), size] as const,
});

/** Counting rules of section 4. */
export function statusCounts(statuses: MediaStatus[]) {
  const n = (s: MediaStatus) => statuses.filter((x) => x === s).length;
  const processing = n('processing');
  const processingTotal = processing + n('queued');
  const failed = statuses.filter((s) => FAILED_STATUSES.includes(s)).length;
  return { indexing: processing, processingTotal, failed, completed: n('completed'), displayed: n('completed') + processingTotal + failed };
}

/** How many media a library holds, by kind: '3 videos', '2 photos', '1 video · 1 photo' ('0 videos' when empty). */
export function mediaCountLabel(count: number, photos = 0): string {
  const videos = count - photos;
  const n = (k: number, one: string) => `${k} ${one}${k === 1 ? '' : 's'}`;
  if (photos === 0) return n(videos, 'video');
  if (videos === 0) return n(photos, 'photo');
  return `${n(videos, 'video')} · ${n(photos, 'photo')}`;
}

export const MSG_LIB = {
  mediaNotFound: 'Media not found',
  libraryNotFound: 'Library not found',
  readOnlyLibrary: 'This library is read-only.',
  cannotDeleteLibrary: 'Default, demo and read-only libraries cannot be deleted.',
  duplicateInFolder: 'Identical file already exists in this folder.',
  duplicatesInFolder: 'Identical files already exist in this folder.',
  uploadCleared: 'Upload cleared',
  storageLimit: (limitHours: number) =>
    `This upload would exceed your storage limit of ${limitHours} hour${limitHours === 1 ? '' : 's'} of media. Delete some media or upgrade your plan.`,
  notRetryable: 'Only failed media can be retried.',
  noPreview: 'No preview is available for this media yet.',
} as const;

// ---------------------------------------------------------------------------------------------
// Appended by the libraries/media/upload UI issue: app routes, view constants and the spec's
// user-visible strings of sections 2, 4, 5, 8 and 9 that the screens show.

export type LibraryTab = 'visual' | 'transcript';
export const LIBRARY_TABS: readonly LibraryTab[] = ['visual', 'transcript'];
export const DEFAULT_LIBRARY_TAB: LibraryTab = 'visual';
/** App route of a library page (`?tab=` only when it is not the default). */
export const libraryPath = (libraryId: string, tab?: LibraryTab) =>
  `/library/${libraryId}${tab && tab !== DEFAULT_LIBRARY_TAB ? `?tab=${tab}` : ''}`;
/**
 * App route of a folder of a library (not named by the spec): its root folder is the library page
 * itself.
 */
export const folderPath = (libraryId: string, folderId: string | null) =>
  folderId ? `/library/${libraryId}/folder/${folderId}` : `/library/${libraryId}`;
/** App route of the media modal over its library page, or over the folder it was opened from. */
export const mediaPath = (libraryId: string, mediaId: string, folderId?: string | null) =>
  `${folderPath(libraryId, folderId ?? null)}/media/${mediaId}`;

/** Media sort keys, stored locally as `key#direction` (section 4). */
export type MediaSortKey = 'title' | 'modified' | 'added' | 'duration';
export type MediaSortValue = `${MediaSortKey}#${1 | -1}`;
export const MEDIA_SORT_VALUES: readonly MediaSortValue[] = [
  'title#1',
  'title#-1',
  'modified#1',
  'modified#-1',
  'added#1',
  'added#-1',
  'duration#1',
  'duration#-1',
];
export const DEFAULT_MEDIA_SORT: MediaSortValue = 'modified#1';

/** Library media grid (section 9). */
export const LIBRARY_MEDIA_GRID = { minCellWidth: 300, maxColumns: 3, gap: 16, defaultColumns: 3 } as const;

/** Media table (section 9). */
export type MediaTableColumn =
  'filename' | 'menu' | 'duration' | 'size' | 'created' | 'status' | 'source' | 'frameCount' | 'width' | 'height';
export const MEDIA_TABLE_ROW_HEIGHT = 86;
export const MEDIA_TABLE_COLUMNS: readonly MediaTableColumn[] = [
  'filename',
  'menu',
  'duration',
  'size',
  'created',
  'status',
  'source',
  'frameCount',
  'width',
  'height',
];
export const MEDIA_TABLE_HIDDEN_BY_DEFAULT: readonly MediaTableColumn[] = ['frameCount', 'width', 'height', 'size'];

/** Origin display names (section 3). */
export const ORIGIN_LABELS = [
  'YouTube',
  'Vimeo',
  'LinkedIn',
  'Instagram',
  'Facebook',
  'Google Drive',
  'Dropbox',
  'External',
  'Upload',
  'Local',
  'Uploading',
  'Unknown',
] as const;
export type OriginLabel = (typeof ORIGIN_LABELS)[number];

/** Sections of the Processing Videos and Failed Videos modals; keys are the saved preference values. */
export const PROCESSING_SECTIONS = [
  { key: 'uploading', label: 'Uploading' },
  { key: 'indexing', label: 'Indexing' },
  { key: 'queued.upload', label: 'Queued for upload' },
  { key: 'queued.indexing', label: 'Queued for indexing' },
] as const;
export const FAILED_SECTIONS = [
  { key: 'failed.uploads', label: 'Failed Uploads' },
  { key: 'failed.indexing', label: 'Failed Indexing' },
] as const;

/** Preferences sync (section 7 and 9). */
export const PREFERENCES_SYNC = { debounceMs: 300, retries: 3, backoffBaseMs: 1000, backoffMaxMs: 5000, followUpMs: 100 } as const;

/** Retry all failed media: at most this many calls a second (section 8). */
export const RETRY_ALL_PER_SECOND = 2;

/** Toast durations of section 9 beyond the 3 s default. */
export const TOAST_MS = {
  dragError: 4000,
  retrySummary: 5000,
  bulkDelete: 5000,
  clear: 6000,
  uploadFailure: 10_000,
  retryFailure: 10_000,
} as const;

/** Strings of the library page, media actions and uploads (sections 2, 5 and 8), verbatim. */
export const MSG_MEDIA = {
  /** Why a media's Open, Download, Retry all or Select all cannot run (the disabled control's tooltip). */
  opensWhenReady: 'It opens once its preview is ready.',
  stillUploading: 'The file is still uploading.',
  retryAllWait: 'Retry started. You can retry again in a few seconds.',
  allSelected: 'Everything shown is selected.',
  noVideos: 'No videos yet',
  /** The media modal and moment dialog of a photo whose picture did not load. */
  photoFailed: 'The photo could not be shown. Try again, or download the original.',
  noResults: 'No results found',
  noResultsHint: 'Try changing/removing your filter criteria.',
  processingTitle: 'Processing Videos',
  failedTitle: 'Failed Videos',
  mediaDeleted: 'Media deleted',
  deleteFailed: 'Failed to delete media',
  mediaRenamed: 'Media renamed',
  clearFailed: 'Failed to clear upload',
  clearSomeFailed: 'Failed to clear some uploads',
  bulkDeleted: (n: number, size: string) => `${n} media ${n === 1 ? 'was' : 'were'} deleted. This operation freed ${size} of storage.`,
  bulkDeleteFailed: (n: number) => `${n} media failed to delete. Please try again. If the problem persists, please contact support.`,
  retryFailed: 'Media retry failed',
  retryingAll: (n: number) => `Retrying ${n} media files...`,
  retryAllFailed: (n: number) => `Failed to retry all ${n} media files`,
  retriedMixed: (ok: number, failed: number) => `Retried ${ok} successfully, ${failed} failed`,
  downloadFailed: 'Failed to download video: Please contact support.',
  modalErrorTitle: 'Modal Error',
  modalError: 'There was an issue with the media modal. Please try refreshing the page.',
  erroredOverlay: 'This file is errored and needs to be re-uploaded. Please contact support if the problem persists.',
  uploadFailedTitle: 'File upload failed',
  uploadFailed: (filename: string, message: string) => `Failed to upload ${filename}: ${message}`,
  duplicatesSkipped: (n: number) => `${n} duplicate${n === 1 ? '' : 's'} skipped`,
  uploadClearedOne: (filename: string) => `Upload of ${filename} cleared.`,
  allUploadsCleared: 'All uploads cleared.',
  filesQueued: (n: number) => `${n} file${n === 1 ? '' : 's'} added to upload queue. Please don't leave this page.`,
  uploadBatchCompleted: 'Upload batch completed',
  chunkFailed: 'Failed to upload chunk',
  allDroppedRejected: 'All files you dragged were rejected. Check the failed videos status to view the rejected files.',
  unexpectedStatus: 'An unexpected error occurred. Please contact support.',
  linkCopied: 'Link copied',
  copyLinkFailedTitle: 'Failed to copy link',
  copyLinkFailed: 'Could not copy link to clipboard',
  /** Not a spec string: the player's note on a media it plays while indexing goes on. */
  stillIndexing: (progress: number) =>
    `Still indexing (${Math.floor(progress * 100)}%): you can watch it now; search finds its moments once indexing is done.`,
} as const;

/**
 * Section 4: completed media open; a processing video whose preview is ready (its HLS preview stage
 * is done) opens and plays while indexing goes on. Search covers it only once it is completed.
 */
export const isWatchableWhileIndexing = (m: Pick<Media, 'status' | 'kind' | 'capabilities'>) =>
  m.status === 'processing' && m.kind === 'video' && m.capabilities.preview;
export const canOpenMedia = (m: Pick<Media, 'status' | 'kind' | 'capabilities'>) => m.status === 'completed' || isWatchableWhileIndexing(m);
/**
 * Whether the media's poster (API.mediaThumbnail without a time) exists: ingest makes it with the
 * thumbnail strip, so until `thumbnails` is set (uploading, early indexing, a failure before it) the
 * app shows a placeholder instead of asking for a picture that is not there (a 404 each).
 */
export const hasPoster = (m: Pick<Media, 'thumbnails'>) => m.thumbnails !== null;
export const isMediaSortValue = (value: unknown): value is MediaSortValue => MEDIA_SORT_VALUES.includes(value as MediaSortValue);

// Search (libraries spec sections 3, 4, 7, 9)
export type SearchResultType = 'visual' | 'transcript' | 'unified';
export const SEARCH_RESULT_TYPES: readonly SearchResultType[] = ['visual', 'transcript', 'unified'];
export const SEARCH_DEFAULT_LIMIT = 100;
export const SEARCH_DEFAULT_SKIP = 0;

/** A moment: a time range inside a media. */
export interface Moment {
  id: string;
  mediaId: string;
  libraryId: string;
  startTime: number;
  endTime: number;
  text: string;
  /** On the one scale of SEARCH_SCORE_SCALE, for every search type: 0 (nothing) to 1 (certain). */
  score: number;
  /** What the score means (confidenceOf(score)); results the client shows by default are high or medium. */
  confidence?: SearchConfidence;
  /**
   * What was said that matched (transcript and unified search, issue 40): the words of `text` to
   * highlight, and why words other than the query's count ('physician ≈ doctor', matchReason).
   */
  match?: MomentMatch;
}

/** The words of a moment's text that matched a query, and the reasons for those found by meaning. */
export interface MomentMatch {
  words: string[];
  reasons: string[];
}

/** How a said word is related to the query's (transcript search by meaning, issue 40). */
export type MatchRelation = 'synonym' | 'hyponym' | 'hypernym' | 'similar' | 'derivation';

/**
 * Why a word matched a query word it is not ('physician ≈ doctor'): ≈ for the same meaning, 'a kind
 * of' where one is a kind of the other, ~ for related forms and similar adjectives.
 */
export const matchReason = (asked: string, said: string, relation: MatchRelation): string =>
  relation === 'synonym'
    ? `${asked} ≈ ${said}`
    : relation === 'hyponym'
      ? `${said}, a kind of ${asked}`
      : relation === 'hypernym'
        ? `${asked}, a kind of ${said}`
        : `${asked} ~ ${said}`;

/**
 * Search scores (issue 18). Every search type scores a moment from 0 to 1 on one scale, and the
 * confidence level follows from it: high at SEARCH_CONFIDENCE.high and above, medium from
 * SEARCH_CONFIDENCE.medium, low below. Visual text: how well the moment shows every concept of the
 * query (the detector's or classifier's confidence times how closely the label matches the words,
 * a geometric mean over the concepts). Image and moment: cosine similarity of image embeddings,
 * calibrated so that unrelated pictures score low (the server's similarityScore.ts); find similar
 * returns only moments of medium confidence or more.
 * Transcript: BM25 over the query's words, as a share of what a segment holding all of them would
 * score, times phrase proximity. Unified: the two combined as independent evidence, 1-(1-a)(1-b).
 */
export type SearchConfidence = 'high' | 'medium' | 'low';
export const SEARCH_CONFIDENCE = { high: 0.6, medium: 0.3 } as const;
export const SEARCH_SCORE_SCALE = { min: 0, max: 1 } as const;
export const confidenceOf = (score: number): SearchConfidence =>
  score >= SEARCH_CONFIDENCE.high ? 'high' : score >= SEARCH_CONFIDENCE.medium ? 'medium' : 'low';

// SearchRequest (the body of the search calls) is schemas/search.ts.

export interface SearchResults {
  results: Moment[];
  medias: Record<string, Media>;
  /** Features some media in the searched libraries were indexed without (a model was missing). */
  missingFeatures?: string[];
}

export interface MultiSearchResults {
  results: Array<{ libraryId: string; results: Moment[] }>;
  medias: Record<string, Media>;
}

/** Moment ids carry their media and range, so a moment query needs no lookup table. */
export const momentId = (mediaId: string, start: number, end: number) =>
  `m_${mediaId}_${Math.round(start * 1000)}_${Math.round(end * 1000)}`;
export function parseMomentId(id: string): { mediaId: string; start: number; end: number } | null {
  const m = /^m_([0-9a-f-]{36})_(\d+)_(\d+)$/.exec(id);
  return m ? { mediaId: m[1]!, start: Number(m[2]) / 1000, end: Number(m[3]) / 1000 } : null;
}

export const MSG_SEARCH = {
  momentNotFound: 'Moment not found',
  searchHeadline: "Find the exact moments you're thinking about across your videos",
  searchSubline: 'Search the Demo library or select an alternate library below.',
  placeholder: 'Ask me anything...',
  /** Issue 18: results exist but none is high or medium confidence. */
  noConfidentMatches: 'No confident matches',
  showLowConfidence: (n: number) => `Show ${n} low-confidence result${n === 1 ? '' : 's'}`,
  hideLowConfidence: 'Hide low-confidence results',
  lowConfidence: 'Low confidence',
  /** Issue 37: every result card says how confident the match is (confidenceOf its score). */
  confidence: { high: 'High confidence', medium: 'Medium confidence', low: 'Low confidence' } satisfies Record<SearchConfidence, string>,
  /** Issue 37: a moment query that nothing else in the libraries looks like. */
  noSimilarMoments: 'No similar moments',
  noSimilarMomentsDetail: 'Nothing else in the searched libraries looks like this moment.',
} as const;

// ---------------------------------------------------------------------------------------------
// Appended by the search page issue: the spec's search, grid and preview constants (sections 4, 5,
// 8 and 9) and the strings of the search bar, library switcher and moment card and dialog.

/** Request debounce (section 4 and 9): one library, several libraries. */
export const SEARCH_DEBOUNCE_MS = { single: 400, multi: 1000 } as const;
/** Query of the transcript search call (section 7). */
export const SEARCH_TRANSCRIPT_THRESHOLD = '0.0';
/**
 * Local feature flag of the unified (multimodal) result type (section 4). Issue 37 offers it to all:
 * set to 'false' or '0', it takes the type away on that device.
 */
export const UNIFIED_SEARCH_FLAG = 'feature.unifiedSearch';
/** Names users see for the result types (section 4). */
export const SEARCH_RESULT_TYPE_LABEL: Record<SearchResultType, string> = {
  visual: 'visual',
  transcript: 'conversational',
  unified: 'multimodal',
};

/** Results grid (section 9). */
export const RESULTS_GRID = { minCellWidth: 200, gap: 16, sideMargin: 8, bottomPadding: 200, throttleMs: 100, skeletons: 10 } as const;

/** Moment previews (section 9): loading queue, hover delay, buffer, recovery and circuit breaker. */
export const MOMENT_PREVIEW = {
  queueConcurrency: 5,
  hoverDelayMs: 500,
  bufferMaxSeconds: 30,
  retries: 3,
  breakerFailures: 5,
  breakerResetMs: 30_000,
  breakerCleanupEveryMs: 5 * 60_000,
  breakerCleanupAfterMs: 60_000,
} as const;

/** Library switcher (section 4 and 9). The filter pill limit is FILTER_PILL_MAX_CHARS. */
export const LIBRARY_SWITCHER = { nameMaxChars: 20, maxIcons: 2 } as const;

/**
 * Transcript and shot descriptions files (section 3). Beyond the spec, each segment carries its id
 * and the recognised text when it was corrected, and `editable` says whether the caller may
 * correct it (the owner, in a library that is not read-only): see transcripts.ts.
 */
export interface TranscriptFile {
  segments: TranscriptLine[];
  editable: boolean;
}
export interface ShotDescriptionsFile {
  descriptions: Array<{ start: number; end: number; desc: string }>;
}

/** Strings of the search page, switcher, moment card and dialog (sections 4, 5 and 8), verbatim. */
export const MSG_SEARCH_UI = {
  searchModeUpdated: 'Search mode updated',
  nowViewing: (mode: string) => `You're now viewing ${mode} results`,
  unsupportedFileTitle: UNSUPPORTED_FILE_TYPE,
  unsupportedFile: 'Please drag and drop an image file for image search. SVG files are not supported.',
  multipleImagesTitle: 'Multiple images detected',
  multipleImages: 'Image search only supports one image at a time. Using the first image.',
  noLibrarySelected: 'No library selected',
  switchingToDemo: 'Switching to demo library',
  libraryChanged: 'Library successfully changed',
  searchingLibraries: (n: number) => `Searching ${n} libraries`,
  similarMoments: 'Search for similar moments',
  retryLoading: 'Click to retry loading.',
  loading: 'Loading...',
  noTranscript: 'No transcript available',
  noDescription: 'No description available',
} as const;
