/**
 * Link import (libraries spec sections 2, 3, 4, 5, 7, 8 and 9): videos added from a link to a
 * video-hosting page, a playlist or a channel. Strings and limits are declared once here for the
 * server and the web app; the call schemas are schemas/external.ts.
 */
import { CREDITS_PER_INGEST_HOUR, ingestCost } from './credits';
import type { Media } from './library';

/** Link-info debounce (section 9): a changed URL waits this long before it is fetched. */
export const LINK_INFO_DEBOUNCE_MS = 800;
/** Upload modal data refresh debounce (section 9). */
export const UPLOAD_MODAL_REFRESH_DEBOUNCE_MS = 300;
/** Name generation delay (section 9): the confirm-add modal's name input stays disabled this long. */
export const NAME_GENERATION_DELAY_MS = { min: 1000, max: 3000 } as const;
/** Added-URL memory (section 9): a URL added within this time is refused again, then forgotten. */
export const ADDED_URL_MEMORY_MS = 10 * 60 * 1000;
/** Bulk external URLs (section 9): batches of 100, up to 3 retries, 100 ms initial delay that doubles. */
export const EXTERNAL_BULK_BATCH = 100;
export const EXTERNAL_BULK_RETRIES = 3;
export const EXTERNAL_BULK_RETRY_DELAY_MS = 100;
/** The choose-media data grid (section 2 and 9): row height 86. */
export const IMPORT_GRID_ROW_HEIGHT = 86;
/** Duration filter units (section 9). */
export const DURATION_FILTER_UNITS = { seconds: 1, minutes: 60, hours: 3600 } as const;
export type DurationFilterUnit = keyof typeof DURATION_FILTER_UNITS;

/** Not named by the spec: server limits of one import. */
export const EXTERNAL_MAX_SECONDS = 4 * 3600;
export const EXTERNAL_MAX_BYTES = 4 * 1024 ** 3;
/** Videos listed by one peek or unwind. */
export const EXTERNAL_LIST_MAX = 500;
export const EXTERNAL_URL_MAX_LENGTH = 2048;
/** Link reads (peek, unwind, single add) a user may start a minute, and yt-dlp reads running at once in a process. */
export const EXTERNAL_READS_PER_MINUTE = 60;
export const EXTERNAL_READS_AT_ONCE = 4;

/** Collection types (section 3). */
export type LinkType = 'single' | 'playlist' | 'channel';
export const LINK_TYPES: readonly LinkType[] = ['single', 'playlist', 'channel'];

/** One video of Imported link info (section 3). `duration` in seconds, null when the site gives none. */
export interface LinkVideo {
  id: string;
  title: string;
  url: string;
  duration: number | null;
  thumbnail: string | null;
  description: string | null;
  publishedAt: string | null;
  /** The key a media imported from this video gets; a media with it is already in the library. */
  uniqueId: string;
}

/** Imported link info (section 3): the answer of peek and unwind. */
export interface LinkInfo {
  type: LinkType;
  /** The playlist's or channel's title, or the video's. */
  title: string;
  channel: { name: string | null; thumbnail: string | null };
  videos: LinkVideo[];
}

/** External URL item (section 3): a row of the choose-media grid. */
export interface ExternalUrlItem {
  id: string;
  title: string;
  duration: number;
  url: string;
}

// ExternalUrlBody and ExternalBulkBody (the call schemas) are schemas/external.ts.
/** The answer of both add calls: the media created, and the items refused with why. */
export interface ExternalAddAnswer {
  media: Media[];
  failed: Array<{ url: string; message: string }>;
}

/** Strings of link import (sections 4, 5 and 8), verbatim. */
export const MSG_EXTERNAL = {
  tabFiles: 'Files',
  tabLink: 'Link',
  urlPlaceholder: 'https://',
  checking: 'Checking link...',
  duplicate: 'This video is already in your library.',
  ready: 'Ready for upload.',
  readyWithVideos: (n: number, duration: string, ambiguous: boolean) =>
    ambiguous
      ? `Ready for upload • ${n} video(s) found in playlist • ${duration} total playlist duration`
      : `Ready for upload • ${n} video(s) found • ${duration} total duration`,
  invalidUrl: 'Please enter a valid URL.',
  /** An http:// link: what is wrong with it, not only that it is wrong (issue 37). */
  httpsRequired: 'Only secure links can be added: this one starts with http://. Use its https:// address.',
  alreadyAdded: 'This URL has already been added.',
  unsupported: 'That URL seems to be invalid, private, or unsupported.',
  fetchFallback: 'Please enter a valid URL to upload from.',
  requestCancelled: 'Request cancelled',
  inLibrary: 'In library',
  notEnoughCredits: "You don't have enough credits to upload all selected media.",
  selectOne: 'Please select at least one video to add to your library.',
  notEnoughCreditsHint: 'Top up your credits or choose fewer videos.',
  youtubeIntermittent: 'Processing YouTube videos is temporarily intermittent.',
  creditsSummary: (approx: number, left: number, after: number) =>
    `Approximately ${approx.toLocaleString('en-US')} credits • ${Math.floor(left).toLocaleString('en-US')} credits left • ${Math.floor(after).toLocaleString('en-US')} credits after`,
  /** When a chosen video's length is not known before it is downloaded: the rule, never a guessed figure. */
  creditsUnknown: (left: number) =>
    `Charged by length once downloaded: ${CREDITS_PER_INGEST_HOUR.toLocaleString('en-US')} credits an hour, at least ${ingestCost(0).toLocaleString('en-US')} a video • ${Math.floor(left).toLocaleString('en-US')} credits left`,
  noLibrary: 'No library selected',
  unexpected: 'An unexpected error occurred',
  uploadUrlFailed: 'Failed to upload URL',
  fallbackStatus: 'An unexpected error occurred. Please contact support.',
  enhanceFailed: 'Failed to process media data. Some features may not work correctly.',
  originalUnavailable: 'Original URL unavailable: This media was not imported from a URL.',
  chooseTitle: 'Choose videos',
  confirmTitle: 'Add to library',
  // Server-side messages (not named by the spec; stable wording)
  playlistNeedsChoice: 'This link holds several videos: choose the ones to add.',
  tooManyReads: 'Too many links checked in a short time. Try again in a minute.',
  tooLong: `Videos longer than ${EXTERNAL_MAX_SECONDS / 3600} hours cannot be imported.`,
  tooLarge: `Videos larger than ${EXTERNAL_MAX_BYTES / 1024 ** 3} GiB cannot be imported.`,
  downloadFailed: (reason: string) => `The video could not be downloaded from its link: ${reason}`,
} as const;

/**
 * Why a link cannot be imported before anything is read from it (section 5: it must start with
 * https), as the app and the server both say it; null when it can be tried.
 */
export function linkUrlProblem(value: string): string | null {
  if (isHttpsUrl(value)) return null;
  return /^http:\/\/[^/\s]/i.test(value.trim()) ? MSG_EXTERNAL.httpsRequired : MSG_EXTERNAL.invalidUrl;
}

/** Section 5: an external URL must start with https. */
export function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\//i.test(value.trim())) return false;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'https:' && Boolean(u.hostname);
  } catch {
    return false;
  }
}

/** Section 5: original-link opening requires an http(s) URL. */
export function isOpenableUrl(value: string | undefined): boolean {
  if (!value) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

export type YouTubeLink =
  { kind: 'video'; id: string } | { kind: 'playlist'; list: string; videoId: string | null } | { kind: 'channel'; channel: string };

const YOUTUBE_HOST = /^(?:www\.|m\.|music\.)?youtube(?:-nocookie)?\.com$/i;
const YOUTUBE_SHORT_HOST = /^(?:www\.)?youtu\.be$/i;
const VIDEO_ID = /^[A-Za-z0-9_-]{11,}$/;

/**
 * YouTube URL recognition (section 5): a playlist through the list parameter on a playlist or watch
 * path; a channel through /channel/, /c/ or /@; a video id through v, /v/, /embed/, /e/, /shorts/
 * or /live/ or the short host, with an id of at least 11 characters. Null: not a YouTube link
 * this recognises.
 */
export function recogniseYouTube(value: string): YouTubeLink | null {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return null;
  }
  const short = YOUTUBE_SHORT_HOST.test(u.hostname);
  if (!short && !YOUTUBE_HOST.test(u.hostname)) return null;
  const parts = u.pathname.split('/').filter(Boolean);
  const videoOf = (id: string | null | undefined) => (id && VIDEO_ID.test(id) ? id : null);
  if (short) {
    const id = videoOf(parts[0]);
    return id ? { kind: 'video', id } : null;
  }
  const list = u.searchParams.get('list');
  if (list && (parts[0] === 'playlist' || parts[0] === 'watch'))
    return { kind: 'playlist', list, videoId: videoOf(u.searchParams.get('v')) };
  if (parts[0] === 'channel' || parts[0] === 'c') return parts[1] ? { kind: 'channel', channel: parts[1] } : null;
  if (parts[0]?.startsWith('@') && parts[0].length > 1) return { kind: 'channel', channel: parts[0] };
  if (parts[0] === 'watch') {
    const id = videoOf(u.searchParams.get('v'));
    return id ? { kind: 'video', id } : null;
  }
  if (parts[0] && ['v', 'embed', 'e', 'shorts', 'live'].includes(parts[0])) {
    const id = videoOf(parts[1]);
    return id ? { kind: 'video', id } : null;
  }
  return null;
}

/**
 * Section 5: the numeric duration filter converts seconds (1), minutes (60) and hours (3600);
 * non-numeric input is ignored (null: no filter).
 */
export function durationFilterSeconds(input: string, unit: DurationFilterUnit): number | null {
  const text = input.trim();
  if (!/^\d+(?:\.\d+)?$|^\.\d+$/.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n * DURATION_FILTER_UNITS[unit] : null;
}

/** Section 5: videos with no duration or a non-numeric one are left out of the choice list. */
export const hasNumericDuration = <T extends { duration?: unknown }>(v: T): v is T & { duration: number } =>
  typeof v.duration === 'number' && Number.isFinite(v.duration) && v.duration > 0;

/**
 * The credit figures of section 8: approximate credits, credits left and credits after the import.
 * Each video costs what indexing it will charge (ingestCost of its length, the rule the server
 * charges by); a video whose length is not known (null) makes the total unknown (`approx` null),
 * never a guess at the 5 s minimum.
 */
export function importCredits(durations: ReadonlyArray<number | null>, balance: number) {
  const known = durations.every((d): d is number => typeof d === 'number' && Number.isFinite(d) && d > 0);
  const approx = known ? durations.reduce<number>((sum, d) => sum + ingestCost(d!), 0) : null;
  return { approx, left: balance, after: approx === null ? null : balance - approx };
}
