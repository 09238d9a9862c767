import { describe, expect, it } from 'vitest';
import { DEFAULT_MEDIA_SORT, type Media, type MediaStatus } from '../../../contract';
import {
  filterMedia,
  finishedIndexing,
  keepOrder,
  mergeMedia,
  originLabel,
  parseSort,
  sortMedia,
  totals,
  visibleRange,
} from './mediaListing';

let n = 0;
function media(name: string, o: { duration?: number; created?: string; updated?: string; status?: MediaStatus; mb?: number } = {}): Media {
  n++;
  return {
    _id: `id-${String(n).padStart(3, '0')}`,
    uniqueId: `fp-${n}`,
    libraryId: 'lib',
    folderId: 'root',
    status: o.status ?? 'completed',
    progress: 1,
    isUploading: o.status === 'uploading',
    createdAt: o.created ?? '2024-01-01T00:00:00Z',
    updatedAt: o.updated ?? '2024-01-01T00:00:00Z',
    origin: { source: 'user' },
    capabilities: { preview: true, source: true, thumbnailTrack: true },
    error: null,
    thumbnails: null,
    missingFeatures: [],
    kind: 'video',
    metadata: {
      name,
      filename: `${name}.mp4`,
      fileMappings: { originalMedia: '' },
      video: { duration: o.duration ?? 0, width: 640, height: 360, frameCount: 0, frameRate: 25, originalMediaSize: o.mb ?? 0 },
    },
  };
}

const names = (list: Media[]) => list.map((m) => m.metadata.name);

describe('media sort', () => {
  const a = media('alpha', { duration: 30, created: '2024-01-03T00:00:00Z', updated: '2024-02-01T00:00:00Z' });
  const b = media('Bravo', { duration: 5, created: '2024-01-01T00:00:00Z', updated: '2024-03-01T00:00:00Z' });
  const c = media('charlie 10', { duration: 60, created: '2024-01-02T00:00:00Z', updated: '2024-01-01T00:00:00Z' });
  const d = media('charlie 9', { duration: 60, created: '2024-01-04T00:00:00Z', updated: '2024-01-15T00:00:00Z' });
  const all = [a, b, c, d];

  it('defaults to modified#1, newest first, and falls back to it for unknown values', () => {
    expect(DEFAULT_MEDIA_SORT).toBe('modified#1');
    expect(parseSort('nonsense#1')).toEqual({ key: 'modified', direction: 1 });
    expect(names(sortMedia(all, 'modified#1'))).toEqual(['Bravo', 'alpha', 'charlie 9', 'charlie 10']);
    expect(names(sortMedia(all, 'modified#-1'))).toEqual(['charlie 10', 'charlie 9', 'alpha', 'Bravo']);
  });

  it('sorts titles A-Z and Z-A, case-insensitively and with numbers in order', () => {
    expect(names(sortMedia(all, 'title#1'))).toEqual(['alpha', 'Bravo', 'charlie 9', 'charlie 10']);
    expect(names(sortMedia(all, 'title#-1'))).toEqual(['charlie 10', 'charlie 9', 'Bravo', 'alpha']);
  });

  it('sorts by added (newest first) and by duration (shortest first), ties by id', () => {
    expect(names(sortMedia(all, 'added#1'))).toEqual(['charlie 9', 'alpha', 'charlie 10', 'Bravo']);
    expect(names(sortMedia(all, 'added#-1'))).toEqual(['Bravo', 'charlie 10', 'alpha', 'charlie 9']);
    expect(names(sortMedia(all, 'duration#1'))).toEqual(['Bravo', 'alpha', 'charlie 10', 'charlie 9']);
    expect(names(sortMedia(all, 'duration#-1'))).toEqual(['charlie 10', 'charlie 9', 'alpha', 'Bravo']);
  });

  it('does not change the list it is given', () => {
    const copy = [...all];
    sortMedia(all, 'title#-1');
    expect(all).toEqual(copy);
  });
});

describe('stable order while the listing polls', () => {
  const ids = (list: Media[]) => list.map((m) => m._id);
  const x = media('x');
  const y = media('y');
  const z = media('z');
  const w = media('w');

  it('keeps the rows on screen in the order shown, whatever the new sort says', () => {
    // y's progress made it the newest modified: sorted afresh it would jump to the top.
    expect(ids(keepOrder([y, x, z], [x._id, y._id, z._id]))).toEqual([x._id, y._id, z._id]);
    expect(ids(keepOrder([z, y, x], [x._id, y._id, z._id]))).toEqual([x._id, y._id, z._id]);
  });

  it('puts a new media where the sort puts it, and drops one that is gone', () => {
    expect(ids(keepOrder([w, y, x, z], [x._id, y._id, z._id]))).toEqual([w._id, x._id, y._id, z._id]);
    expect(ids(keepOrder([y, w, x], [x._id, y._id, z._id]))).toEqual([x._id, w._id, y._id]);
  });

  it('is the sort itself the first time', () => {
    expect(ids(keepOrder([y, x], null))).toEqual([y._id, x._id]);
    expect(ids(keepOrder([y, x], []))).toEqual([y._id, x._id]);
  });
});

describe('media filter', () => {
  const list = [media('Beach day'), media('Birthday', { status: 'processing' }), media('Mountains', { status: 'errored' })];

  it('filters titles case-insensitively, ignoring surrounding spaces', () => {
    expect(names(filterMedia(list, { title: '  DAY ' }))).toEqual(['Beach day', 'Birthday']);
    expect(names(filterMedia(list, { title: '' }))).toEqual(['Beach day', 'Birthday', 'Mountains']);
  });

  it('filters by status and combines with the title', () => {
    expect(names(filterMedia(list, { status: 'errored' }))).toEqual(['Mountains']);
    expect(names(filterMedia(list, { status: 'processing', title: 'beach' }))).toEqual([]);
    expect(names(filterMedia(list, { status: null }))).toHaveLength(3);
  });
});

describe('listing helpers', () => {
  it('adds up durations and sizes for the header', () => {
    expect(totals([media('a', { duration: 10, mb: 1 }), media('b', { duration: 2.5, mb: 0.5 })])).toEqual({
      duration: 12.5,
      bytes: 1.5 * 1024 * 1024,
    });
  });

  it('names the origin', () => {
    expect(originLabel({ origin: { source: 'user' }, isUploading: false })).toBe('Upload');
    expect(originLabel({ origin: { source: 'user' }, isUploading: true })).toBe('Uploading');
    expect(originLabel({ origin: { source: 'user', type: 'demo' }, isUploading: false })).toBe('Local');
    expect(originLabel({ origin: { source: 'external', url: 'https://www.youtube.com/watch?v=x' }, isUploading: false })).toBe('YouTube');
    expect(originLabel({ origin: { source: 'external', url: 'https://example.com/v.mp4' }, isUploading: false })).toBe('External');
  });

  it('finds the index range of visible media and merges refreshed ones', () => {
    const list = [media('a'), media('b'), media('c'), media('d')];
    expect(visibleRange(list, new Set([list[1]!._id, list[2]!._id]))).toEqual({ start: 1, end: 3 });
    expect(visibleRange(list, new Set())).toBeNull();
    expect(visibleRange(list, new Set([list[0]!._id, list[3]!._id]), 2)).toEqual({ start: 0, end: 2 });
    const fresh = { ...list[2]!, status: 'errored' as const };
    expect(mergeMedia(list, [fresh]).map((m) => m.status)).toEqual(['completed', 'completed', 'errored', 'completed']);
  });
});

describe('finished indexing (the sound preference plays on it)', () => {
  it('is a media that was queued or indexing and now is completed, nothing else', () => {
    const a = media('a', { status: 'processing' });
    const b = media('b', { status: 'queued' });
    const c = media('c', { status: 'errored' });
    const done = (m: Media) => ({ ...m, status: 'completed' as const });
    expect(finishedIndexing([a, b, c], [a, b, c])).toBe(false);
    expect(finishedIndexing([a, b, c], [done(a), b, c])).toBe(true);
    expect(finishedIndexing([a, b, c], [a, done(b), c])).toBe(true);
    // a retried failure that completes came back through processing; one never seen before is no news
    expect(finishedIndexing([a, b, c], [a, b, done(c)])).toBe(false);
    expect(finishedIndexing([], [done(a)])).toBe(false);
  });
});
