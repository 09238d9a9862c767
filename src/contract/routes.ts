/** API paths (spec section 7 of both documents) and app routes. The server registers these exact strings. */
export const API = {
  login: '/auth/email/login',
  register: '/auth/email/register',
  logout: '/auth/logout',
  resetRequest: '/auth/password/reset/request',
  reset: '/auth/password/reset',
  /** Whether a reset link can still be used, without using it (not in the spec: the form says so before it is filled in). */
  resetCheck: '/auth/password/reset/check',
  changePassword: '/auth/password/change',
  verifyEmail: '/auth/email/verify',
  resendVerification: '/auth/email/verify/resend',
  refreshToken: '/auth/token/refresh',
  me: '/user/me',
  meSettings: '/user/me/settings',
  /** Not named by the spec: the account's moment trims (issue 37, item 9); GET lists them, POST sends edits. */
  meTrims: '/user/me/trims',
  intercom: '/user/intercom',
  /** Not named by the spec: where the global error dialog sends its feedback form. */
  feedback: '/feedback',
  /** Not named by the spec: local admin bridge used by `npm run admin` while the server holds the data directory. */
  adminImpersonate: '/admin/impersonate',
  health: '/health',

  billingInfo: '/billing/info',
  usageHistory: '/billing/credits/usage/history',
  oneTimePurchase: '/billing/one-time/purchase',
  subscriptionPurchase: '/billing/subscription/purchase',
  subscriptionChange: '/billing/subscription/change',
  subscriptionsAvailable: '/billing/subscription/available',
  oneTimeAvailable: '/billing/one-time/available',
  billingPortal: '/billing/portal',
  invoiceUrl: (id: string) => `/billing/invoice/${id}/url`,
  /** Not named by the spec: Stripe's webhook endpoint. */
  stripeWebhook: '/billing/stripe/webhook',
  /** Not named by the spec: the local provider's portal and invoice pages (HTML). */
  localPortal: '/billing/local/portal',
  localPortalCancel: '/billing/local/portal/cancel',
  localInvoice: (id: string) => `/billing/local/invoice/${id}`,

  libraries: '/library',
  library: (id: string) => `/library/${id}`,
  libraryPreviewToken: (id: string) => `/library/${id}/preview`,
  folder: (libraryId: string, folderId?: string) =>
    folderId ? `/library/${libraryId}/folder/${folderId}` : `/library/${libraryId}/folder`,
  /** Not named by the spec: creates a folder (FolderCreateBody). Rename and delete are PATCH and DELETE on API.folder. */
  folderCreate: (libraryId: string) => `/library/${libraryId}/folder`,
  media: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}`,
  mediaBulkDelete: (libraryId: string) => `/library/${libraryId}/media/delete/bulk`,
  mediaRetry: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/retry`,
  mediaOriginal: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/file/original`,
  uploadStart: (libraryId: string, folderId: string) => `/library/${libraryId}/folder/${folderId}/media/upload`,
  uploadFinish: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/upload/finish`,
  /** Link import (spec 7): body ExternalUrlBody / ExternalBulkBody, answer ExternalAddAnswer. */
  externalAdd: (libraryId: string, folderId: string) => `/library/${libraryId}/folder/${folderId}/media/external`,
  externalBulk: (libraryId: string, folderId: string) => `/library/${libraryId}/folder/${folderId}/media/external/bulk`,
  /** Link info of a link (spec 7): body ExternalUrlBody, answer LinkInfo. */
  externalPeek: '/library/media/external/peek',
  externalUnwind: '/library/media/external/unwind',
  /** Not named by the spec ("delete errored media"). */
  mediaDeleteErrored: (libraryId: string) => `/library/${libraryId}/media/delete/errored`,
  /** Not named by the spec ("retry all failed"). */
  mediaRetryFailed: (libraryId: string) => `/library/${libraryId}/media/retry/failed`,
  /** Not named by the spec ("clear uploads"): body {mediaIds?}; without ids clears all unfinished uploads. */
  uploadsClear: (libraryId: string) => `/library/${libraryId}/media/uploads/clear`,
  /** Not named by the spec ("refresh by index range"): query folderId, sort, start, end. */
  mediaRange: (libraryId: string) => `/library/${libraryId}/media/range`,
  /** HLS preview playlist (spec 7); authorised by the library preview token (`?token=`) or a bearer token. */
  mediaPreview: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/preview`,
  mediaPreviewSegment: (libraryId: string, mediaId: string, segment: string) => `/library/${libraryId}/media/${mediaId}/preview/${segment}`,
  /** The spec's token-looked-up playlist path: query token, libraryId, mediaId. */
  previewPlaylist: '/media/preview/hls/playlist.m3u8',
  /** The original file, byte ranges honoured, when it is an MP4/MOV (Media.capabilities.source); preview token or bearer. */
  mediaSource: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/source.mp4`,
  /**
   * Not named by the spec: the media's timeline thumbnail track (Media.capabilities.thumbnailTrack), a
   * small H.264 MP4 holding only the original's keyframes, upright, each an IDR picture at its time;
   * byte ranges honoured; preview token or bearer.
   */
  mediaThumbnailTrack: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/thumbnails/track.mp4`,
  /** Thumbnail strip image of a media (frames side by side; geometry in Media.thumbnails). */
  mediaStrip: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/thumbnails/strip.webp`,
  /** Transcript and shot descriptions (spec 7): query libraryId, mediaId. */
  transcriptJson: '/data/transcript.json',
  shotDescriptionsJson: '/data/shot_descriptions.json',
  searchVisual: (libraryId: string) => `/library/${libraryId}/search/visual`,
  searchTranscript: (libraryId: string) => `/library/${libraryId}/search/transcript`,
  searchUnified: (libraryId: string) => `/library/${libraryId}/search/unified`,
  searchMulti: '/search/visual',
  /** Poster/thumbnail of a media at a timestamp; authorised by the library preview token. */
  mediaThumbnail: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/media/thumbnail.webp`,
  /**
   * Not named by the spec: a photo as it is looked at (EXIF orientation applied, at most
   * PHOTO_PICTURE_MAX_SIDE on its longer side, WebP); authorised by the library preview token like the thumbnail.
   */
  mediaPicture: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/media/picture.webp`,
  /** Rendering (spec 7): body CompilationBody / GifBody, answer RenderAnswer (200 done, 202 still running). */
  renderCompilation: '/rendering/compilation/v2',
  renderGif: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/gif/v2`,
  /** Issue 39: POST body CompilationSubtitlesBody; answers the .srt/.vtt file (attachment). */
  renderSubtitles: '/rendering/compilation/subtitles',
  /** Issue 39: POST body CompilationExportBody; answers the project file (attachment). */
  renderExport: '/rendering/compilation/export',
  /** Issue 39: GET query FramingQuery; answer FramingAnswer (the automatic crop path of a range). */
  mediaFraming: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/framing`,
  /** Not named by the spec: a render's state, polled after a 202 (answer RenderAnswer). */
  renderStatus: (renderId: string) => `/rendering/${renderId}`,
  /** Not named by the spec ("transcripts can be downloaded as SRT"): query SrtQuery; answers the .srt file. */
  mediaSrt: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/transcript.srt`,
  /** Not named by the spec (transcript corrections, transcripts.ts): PATCH body TranscriptCorrectBody, answer TranscriptLine. */
  transcriptSegment: (libraryId: string, mediaId: string, segmentId: string) =>
    `/library/${libraryId}/media/${mediaId}/transcript/segments/${segmentId}`,
  /** Not named by the spec: POST puts back what speech to text heard; answer TranscriptLine. */
  transcriptSegmentRestore: (libraryId: string, mediaId: string, segmentId: string) =>
    `/library/${libraryId}/media/${mediaId}/transcript/segments/${segmentId}/restore`,
  /** Not named by the spec: GET a media's recorded corrections, newest first (query TranscriptCorrectionsQuery). */
  transcriptCorrections: (libraryId: string, mediaId: string) => `/library/${libraryId}/media/${mediaId}/transcript/corrections`,
} as const;

/** Every API path prefix; the server answers these and serves the web app for everything else. */
export const API_PREFIXES = [
  '/auth/',
  '/user/',
  '/feedback',
  '/admin/',
  '/health',
  '/billing/',
  '/library',
  '/search/',
  '/data/',
  '/media/',
  '/rendering/',
  '/blobs/',
] as const;

/** Server-rendered pages and files a browser opens directly (never the web app, whatever Accept says). */
export const SERVER_PAGE_PREFIXES = ['/blobs/', '/billing/local/', '/media/preview/'] as const;

export const ROUTES = {
  root: '/',
  login: '/login',
  register: '/register',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  confirmEmail: '/confirm-email',
  settings: '/settings',
  pricing: '/pricing',
  privacy: '/extension/privacy',
  terms: '/extension/terms',
  workspace: '/workspace',
  libraries: '/libraries',
  search: '/search',
  /** Not named by the spec: the sign-in link printed by the admin impersonation command (token in the hash). */
  impersonate: '/impersonate',
} as const;

export const settingsPath = (tab?: SettingsTab) => (tab ? `${ROUTES.settings}/${tab}` : ROUTES.settings);
export type SettingsTab = 'password' | 'billing';
export const SETTINGS_TABS: readonly SettingsTab[] = ['password', 'billing'];

export const confirmEmailLink = (appUrl: string, code: string) =>
  `${appUrl.replace(/\/$/, '')}${ROUTES.confirmEmail}?code=${encodeURIComponent(code)}`;
export const resetPasswordLink = (appUrl: string, code: string) =>
  `${appUrl.replace(/\/$/, '')}${ROUTES.resetPassword}?code=${encodeURIComponent(code)}`;
export const impersonateLink = (appUrl: string, token: string) =>
  `${appUrl.replace(/\/$/, '')}${ROUTES.impersonate}#token=${encodeURIComponent(token)}`;
