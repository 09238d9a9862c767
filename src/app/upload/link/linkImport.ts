// Link import rules without React (libraries spec sections 4, 5 and 9), tested on their own.
import {
  ADDED_URL_MEMORY_MS,
  durationFilterSeconds,
  EXTERNAL_BULK_BATCH,
  EXTERNAL_BULK_RETRIES,
  EXTERNAL_BULK_RETRY_DELAY_MS,
  hasNumericDuration,
  MSG_EXTERNAL,
  NAME_GENERATION_DELAY_MS,
  type DurationFilterUnit,
  type ExternalAddAnswer,
  type LinkInfo,
  type LinkVideo,
} from '../../../contract';
import { retryable, withRetry } from '../../state/renderPolling';
import { formatDuration } from '../../ui/format';

export type LinkStatus =
  { kind: 'idle' } | { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'duplicate' } | { kind: 'valid'; info: LinkInfo };

/** The status line under the URL input (section 4). */
export function linkStatusText(status: LinkStatus): string {
  switch (status.kind) {
    case 'idle':
      return '';
    case 'loading':
      return MSG_EXTERNAL.checking;
    case 'error':
      return status.message;
    case 'duplicate':
      return MSG_EXTERNAL.duplicate;
    case 'valid': {
      const videos = choosable(status.info.videos);
      if (!videos.length) return MSG_EXTERNAL.ready;
      const total = videos.reduce((sum, v) => sum + v.duration, 0);
      // A watch link that also names a playlist is ambiguous: it is read as the playlist.
      const ambiguous = status.info.type === 'playlist' && /[?&]v=/.test(status.info.videos[0]?.url ?? '');
      return MSG_EXTERNAL.readyWithVideos(videos.length, formatDuration(total), ambiguous);
    }
  }
}

/** Section 5: videos without a numeric duration are left out of the choice. */
export const choosable = (videos: readonly LinkVideo[]) => videos.filter(hasNumericDuration);

/**
 * Section 5 and 9: URLs added within the last 10 minutes are refused again ('This URL has already
 * been added.') and forgotten after that.
 */
export class AddedUrlMemory {
  private readonly added = new Map<string, number>();
  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = ADDED_URL_MEMORY_MS,
  ) {}
  private key(url: string) {
    return url.trim();
  }
  remember(urls: Iterable<string>) {
    for (const u of urls) this.added.set(this.key(u), this.now());
  }
  has(url: string): boolean {
    const at = this.added.get(this.key(url));
    if (at === undefined) return false;
    if (this.now() - at >= this.ttlMs) {
      this.added.delete(this.key(url));
      return false;
    }
    return true;
  }
}

/** The memory shared by every link tab of the page. */
export const addedUrls = new AddedUrlMemory();

/**
 * Section 9: bulk adds go in batches of 100, each retried up to 3 times from 100 ms, doubling, while
 * the failure is worth retrying (network or server, not a refusal).
 */
export async function addInBatches(
  items: ReadonlyArray<{ url: string; name: string }>,
  send: (batch: Array<{ url: string; name: string }>) => Promise<ExternalAddAnswer>,
): Promise<ExternalAddAnswer> {
  const out: ExternalAddAnswer = { media: [], failed: [] };
  for (let i = 0; i < items.length; i += EXTERNAL_BULK_BATCH) {
    const batch = items.slice(i, i + EXTERNAL_BULK_BATCH);
    try {
      const r = await withRetry(() => send(batch), {
        attempts: 1 + EXTERNAL_BULK_RETRIES,
        baseMs: EXTERNAL_BULK_RETRY_DELAY_MS,
        isRetryable: retryable,
      });
      out.media.push(...r.media);
      out.failed.push(...r.failed);
    } catch (e) {
      const message = e instanceof Error && e.message ? e.message : MSG_EXTERNAL.uploadUrlFailed;
      out.failed.push(...batch.map((b) => ({ url: b.url, message })));
    }
  }
  return out;
}

export type SortKey = 'title' | 'duration' | 'publishedAt';
export interface SortState {
  key: SortKey;
  dir: 'asc' | 'desc';
}

/** Section 2: a column sorts ascending first, then descending, then ascending again. */
export function nextSort(current: SortState | null, key: SortKey): SortState {
  return current?.key === key && current.dir === 'asc' ? { key, dir: 'desc' } : { key, dir: 'asc' };
}

export function sortVideos<T extends LinkVideo & { duration: number }>(videos: readonly T[], sort: SortState | null): T[] {
  if (!sort) return [...videos];
  const sign = sort.dir === 'asc' ? 1 : -1;
  const value = (v: T) => (sort.key === 'duration' ? v.duration : sort.key === 'title' ? v.title.toLowerCase() : (v.publishedAt ?? ''));
  return [...videos].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -1 : x > y ? 1 : 0) * sign;
  });
}

export type DurationOp = 'gte' | 'lte';

/** The numeric duration filter (section 5): non-numeric input leaves every video in. */
export function filterByDuration<T extends { duration: number }>(
  videos: readonly T[],
  input: string,
  unit: DurationFilterUnit,
  op: DurationOp,
): T[] {
  const limit = durationFilterSeconds(input, unit);
  if (limit === null) return [...videos];
  return videos.filter((v) => (op === 'gte' ? v.duration >= limit : v.duration <= limit));
}

/** Section 9: the confirm-add modal's name is generated after 1 to 3 seconds. */
export const nameGenerationDelay = (random: () => number = Math.random) =>
  NAME_GENERATION_DELAY_MS.min + Math.round(random() * (NAME_GENERATION_DELAY_MS.max - NAME_GENERATION_DELAY_MS.min));

/** The generated name of a new library for an import: the playlist's or channel's title, else the video's. */
export const generatedLibraryName = (info: LinkInfo) => (info.channel.name ?? info.title).trim().slice(0, 120);
