import {
  DEFAULT_MEDIA_SORT,
  FAILED_STATUSES,
  isMediaSortValue,
  type Media,
  type MediaSortKey,
  type MediaSortValue,
  type MediaStatus,
  type OriginLabel,
} from '../../../contract';
import { formatBytes } from '../../ui/format';

/** Pure rules of the library listing: sorting, filtering, totals and labels. */

export function parseSort(value: string | null | undefined): { key: MediaSortKey; direction: 1 | -1 } {
  const v = isMediaSortValue(value) ? value : DEFAULT_MEDIA_SORT;
  const [key, dir] = v.split('#') as [MediaSortKey, string];
  return { key, direction: dir === '-1' ? -1 : 1 };
}

const time = (iso: string) => new Date(iso).getTime() || 0;

/**
 * Sorts like the server does, so a local re-sort and a server page agree: title#1 is A-Z,
 * duration#1 shortest first, and for the dates #1 ("modified first", "added first") is newest
 * first. Ties fall back to the id, as on the server.
 */
export function sortMedia(files: readonly Media[], sort: MediaSortValue): Media[] {
  const { key, direction } = parseSort(sort);
  const ascending = key === 'title' || key === 'duration' ? direction === 1 : direction === -1;
  const sign = ascending ? 1 : -1;
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  const compare = (a: Media, b: Media): number => {
    switch (key) {
      case 'title':
        return collator.compare(a.metadata.name, b.metadata.name);
      case 'duration':
        return (a.metadata.video.duration || 0) - (b.metadata.video.duration || 0);
      case 'modified':
        return time(a.updatedAt) - time(b.updatedAt);
      case 'added':
        return time(a.createdAt) - time(b.createdAt);
    }
  };
  return [...files].sort((a, b) => sign * compare(a, b) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
}

/**
 * The listing in a stable order: the media already on screen (`shown`, their ids in the order shown)
 * keep that order, and the others take the places the sort gives them. While media index the
 * server's 'modified' time changes with every progress step, so sorting each poll afresh moved rows
 * under the pointer; the page sorts afresh when the sort, the folder or the library changes.
 */
export function keepOrder(sorted: readonly Media[], shown: readonly string[] | null): Media[] {
  if (!shown?.length) return [...sorted];
  const rank = new Map(shown.map((id, i) => [id, i]));
  const known = sorted.filter((m) => rank.has(m._id)).sort((a, b) => rank.get(a._id)! - rank.get(b._id)!);
  let next = 0;
  return sorted.map((m) => (rank.has(m._id) ? known[next++]! : m));
}

export interface MediaFilter {
  /** Case-insensitive part of the title (grid view). */
  title?: string;
  /** One of the table's status filter values; null for all. */
  status?: MediaStatus | null;
}

export function filterMedia(files: readonly Media[], filter: MediaFilter): Media[] {
  const needle = filter.title?.trim().toLocaleLowerCase() ?? '';
  return files.filter(
    (m) =>
      (!needle || m.metadata.name.toLocaleLowerCase().includes(needle) || m.metadata.filename.toLocaleLowerCase().includes(needle)) &&
      (!filter.status || m.status === filter.status),
  );
}

export const isFilterActive = (filter: MediaFilter) => Boolean(filter.title?.trim()) || Boolean(filter.status);

/** Statuses whose media still change on the server, so the page polls faster while any is present. */
export const ACTIVE_STATUSES: readonly MediaStatus[] = ['uploading', 'queued', 'processing'];
export const isActiveStatus = (s: MediaStatus) => ACTIVE_STATUSES.includes(s);
export const isFailedStatus = (s: MediaStatus) => FAILED_STATUSES.includes(s);

export const mediaBytes = (m: Media) => Math.round((m.metadata.video.originalMediaSize || 0) * 1024 * 1024);

/**
 * A media's size for display. The server reports it in MB rounded to 0.01, so a tiny file reads
 * as 0: say "under 10 KB" rather than a misleading "0 B".
 */
export const formatMediaSize = (m: Media) => (mediaBytes(m) === 0 && m.status !== 'uploading' ? '< 10 KB' : formatBytes(mediaBytes(m)));

/** The header's total size; like formatMediaSize, media too small to register are not "0 B". */
export const formatTotalSize = (files: readonly Media[], bytes: number) =>
  bytes === 0 && files.length > 0 ? '< 10 KB' : formatBytes(bytes);

/** Header totals of the library page: total duration (s) and size (bytes). */
export function totals(files: readonly Media[]) {
  let duration = 0;
  let bytes = 0;
  for (const m of files) {
    duration += m.metadata.video.duration || 0;
    bytes += mediaBytes(m);
  }
  return { duration, bytes };
}

const HOSTS: Array<[RegExp, OriginLabel]> = [
  [/(^|\.)(youtube\.com|youtu\.be)$/, 'YouTube'],
  [/(^|\.)vimeo\.com$/, 'Vimeo'],
  [/(^|\.)linkedin\.com$/, 'LinkedIn'],
  [/(^|\.)instagram\.com$/, 'Instagram'],
  [/(^|\.)(facebook\.com|fb\.watch)$/, 'Facebook'],
  [/(^|\.)drive\.google\.com$/, 'Google Drive'],
  [/(^|\.)dropbox\.com$/, 'Dropbox'],
];

/** The origin display name of a media (section 3). */
export function originLabel(m: Pick<Media, 'origin' | 'isUploading'>): OriginLabel {
  if (m.isUploading) return 'Uploading';
  if (m.origin?.source === 'user') return m.origin.type === 'demo' ? 'Local' : 'Upload';
  if (m.origin?.source === 'external') {
    try {
      const host = new URL(m.origin.url ?? '').hostname.toLowerCase();
      return HOSTS.find(([re]) => re.test(host))?.[1] ?? 'External';
    } catch {
      return 'External';
    }
  }
  return 'Unknown';
}

/** Range of positions [start, end) covering the given ids in the (server-ordered) list, at most `max` long. */
export function visibleRange(ordered: readonly Media[], ids: ReadonlySet<string>, max = 500): { start: number; end: number } | null {
  let start = -1;
  let end = -1;
  ordered.forEach((m, i) => {
    if (!ids.has(m._id)) return;
    if (start < 0) start = i;
    end = i + 1;
  });
  if (start < 0) return null;
  return { start, end: Math.min(end, start + max) };
}

/** Replaces refreshed media in place (by id); media not in the list are ignored. */
export function mergeMedia(files: readonly Media[], fresh: readonly Media[]): Media[] {
  const byId = new Map(fresh.map((m) => [m._id, m]));
  return files.map((m) => byId.get(m._id) ?? m);
}

/** Whether a media that was queued or indexing in `before` is completed in `after` (an indexing finished). */
export function finishedIndexing(before: readonly Media[], after: readonly Media[]): boolean {
  const was = new Map(before.map((m) => [m._id, m.status]));
  return after.some((m) => m.status === 'completed' && (was.get(m._id) === 'processing' || was.get(m._id) === 'queued'));
}
