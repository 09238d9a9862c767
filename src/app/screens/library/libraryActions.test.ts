import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG, MSG_LIB, MSG_MEDIA, RETRY_ALL_LOCK_MS, type Folder, type Library, type Media, type MediaStatus } from '../../../contract';
import { createActionRunner, type LibraryActionName } from './libraryActions';
import { createLibraryStore } from './libraryStore';

const media = (id: string, status: MediaStatus = 'completed') =>
  ({ _id: id, libraryId: 'lib', status, capabilities: { preview: true, source: true }, metadata: { name: id } }) as unknown as Media;
const folder = { _id: 'f1', name: 'Trips' } as Folder;

function page(o: { readOnly?: boolean; demo?: boolean; verified?: boolean; shown?: Media[]; failed?: Media[] } = {}) {
  const store = createLibraryStore();
  const scheduled = vi.fn();
  const deps = {
    api: {
      retry: vi.fn(async (_lib: string, id: string) => ({ media: media(id), error: null as string | null })),
      retryFailed: vi.fn(async () => ({ retried: 2, failed: [] as { mediaId: string; message: string }[] })),
    },
    schedule: <T>(fn: () => Promise<T>) => (scheduled(), fn()),
    toast: vi.fn(() => 0),
    navigateToMedia: vi.fn(),
    download: vi.fn(async () => undefined),
    replace: vi.fn(),
    reload: vi.fn(),
  };
  const library = { _id: 'lib', name: 'Holidays', isReadOnly: o.readOnly ?? false, isDemo: o.demo ?? false } as Library;
  // The store stands in for the render's snapshot: canRun sees what run changed.
  const actions = createActionRunner({
    library,
    userVerified: o.verified ?? true,
    store,
    ui: store,
    shown: o.shown ?? [],
    failedIndexing: o.failed ?? [],
    deps,
  });
  return { store, deps, scheduled, actions };
}

afterEach(() => vi.useRealTimers());

describe('library actions: why an action cannot run', () => {
  const changes = [
    ['renameMedia', media('m1')],
    ['deleteMedia', media('m1')],
    ['retry', media('m1', 'errored')],
    ['renameFolder', folder],
    ['deleteFolder', folder],
    ['deleteSelected'],
    ['retryAllFailed'],
  ] as const;

  it.each([
    ['read-only', { readOnly: true }],
    ['demo', { demo: true }],
  ])('a %s library refuses every change with the read-only reason', (_kind, o) => {
    const { actions } = page(o);
    for (const [name, arg] of changes) {
      const args = (arg ? [arg] : []) as [];
      expect(actions.canRun(name as 'deleteSelected', ...args), name).toBe(MSG_LIB.readOnlyLibrary);
    }
    expect(actions.canRun('addVideos')).toBe(MSG_LIB.readOnlyLibrary);
    expect(actions.canRun('newFolder')).toBe(MSG_LIB.readOnlyLibrary);
  });

  it('adding waits for a verified email, which is said before read-only', () => {
    expect(page({ verified: false }).actions.canRun('addVideos')).toBe(MSG.verifyToAdd);
    expect(page({ verified: false, readOnly: true }).actions.canRun('newFolder')).toBe(MSG.verifyToAdd);
    // Changing what is there does not need it.
    expect(page({ verified: false }).actions.canRun('deleteMedia', media('m1'))).toBeNull();
  });

  it('a writable library lets everything run', () => {
    const { actions } = page({ shown: [media('m1')] });
    for (const [name, arg] of changes) expect(actions.canRun(name as 'deleteSelected', ...((arg ? [arg] : []) as [])), name).toBeNull();
    for (const name of ['addVideos', 'newFolder', 'selectAll', 'deselectAll', 'clearFilters'] as const)
      expect(actions.canRun(name)).toBeNull();
  });

  it('opening waits for the preview, downloading for the upload', () => {
    const { actions } = page();
    expect(actions.canRun('openMedia', media('m1', 'uploading'))).toBe(MSG_MEDIA.opensWhenReady);
    expect(actions.canRun('openMedia', media('m1'))).toBeNull();
    expect(actions.canRun('downloadOriginal', media('m1', 'uploading'))).toBe(MSG_MEDIA.stillUploading);
    expect(actions.canRun('downloadOriginal', media('m1', 'processing'))).toBeNull();
  });
});

describe('library actions: what running does', () => {
  it('a read-only library opens no delete or rename dialog and calls no retry', () => {
    const { actions, store, deps } = page({ readOnly: true });
    store.selected = new Set(['m1']);
    const refused: [LibraryActionName, ...unknown[]][] = [
      ['deleteMedia', media('m1')],
      ['renameMedia', media('m1')],
      ['deleteFolder', folder],
      ['deleteSelected'],
    ];
    for (const [name, ...args] of refused) expect(actions.run(name as 'deleteSelected', ...(args as [])), name).toBe(false);
    expect(store.dialog).toBeNull();
    expect(actions.run('retry', media('m1', 'errored'))).toBe(false);
    expect(actions.run('retryAllFailed')).toBe(false);
    expect(deps.api.retry).not.toHaveBeenCalled();
    expect(deps.api.retryFailed).not.toHaveBeenCalled();
    expect(store.retryAllLocked).toBe(false);
  });

  it('opens the dialog of the action, with what it acts on', () => {
    const { actions, store } = page();
    const m = media('m1');
    actions.run('deleteMedia', m);
    expect(store.dialog).toEqual({ kind: 'deleteMedia', media: m });
    actions.run('renameFolder', folder);
    expect(store.dialog).toEqual({ kind: 'renameFolder', folder });
    actions.run('newFolder');
    expect(store.dialog).toEqual({ kind: 'createFolder' });
    store.selected = new Set(['a', 'b']);
    actions.run('deleteSelected');
    expect(store.dialog).toEqual({ kind: 'bulkDelete', mediaIds: ['a', 'b'] });
  });

  it('retries one media through the rate limiter, puts the answer in place, and toasts a refusal', async () => {
    const { actions, deps, scheduled } = page();
    actions.run('retry', media('m1', 'errored'));
    await vi.waitFor(() => expect(deps.replace).toHaveBeenCalledWith(media('m1')));
    expect(scheduled).toHaveBeenCalledTimes(1);
    expect(deps.api.retry).toHaveBeenCalledWith('lib', 'm1');
    deps.api.retry.mockResolvedValueOnce({ media: media('m2', 'failed'), error: 'No credits left' });
    actions.run('retry', media('m2', 'failed'));
    await vi.waitFor(() =>
      expect(deps.toast).toHaveBeenCalledWith('No credits left', expect.objectContaining({ title: MSG_MEDIA.retryFailed, tone: 'error' })),
    );
  });

  it('retry all is locked for RETRY_ALL_LOCK_MS, says how many restarted, and reloads the listing', async () => {
    vi.useFakeTimers();
    const { actions, store, deps } = page({ failed: [media('a', 'errored'), media('b', 'failed')] });
    expect(actions.run('retryAllFailed')).toBe(true);
    expect(store.retryAllLocked).toBe(true);
    expect(actions.canRun('retryAllFailed')).toBe(MSG_MEDIA.retryAllWait);
    expect(actions.run('retryAllFailed')).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(deps.api.retryFailed).toHaveBeenCalledTimes(1);
    expect(deps.toast).toHaveBeenCalledWith(MSG_MEDIA.retryingAll(2), expect.objectContaining({ tone: 'success' }));
    expect(deps.reload).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RETRY_ALL_LOCK_MS);
    expect(store.retryAllLocked).toBe(false);
    expect(actions.canRun('retryAllFailed')).toBeNull();
  });

  it('opens and downloads media only when they can be', () => {
    const { actions, deps } = page();
    expect(actions.run('openMedia', media('m1', 'uploading'))).toBe(false);
    actions.run('openMedia', media('m2'));
    expect(deps.navigateToMedia).toHaveBeenCalledExactlyOnceWith(media('m2'));
    expect(actions.run('downloadOriginal', media('m3', 'uploading'))).toBe(false);
    actions.run('downloadOriginal', media('m4'));
    expect(deps.download).toHaveBeenCalledExactlyOnceWith(media('m4'));
  });

  it('selects what is shown, deselects all, clears the filters', () => {
    const { actions, store } = page({ shown: [media('a'), media('b')] });
    store.selected = new Set(['z']);
    actions.run('selectAll');
    expect([...store.selected]).toEqual(['z', 'a', 'b']);
    actions.run('deselectAll');
    expect(store.selected.size).toBe(0);
    store.titleFilter = 'trip';
    store.statusFilter = 'failed';
    actions.run('clearFilters');
    expect([store.titleFilter, store.statusFilter]).toEqual(['', null]);
  });
});
