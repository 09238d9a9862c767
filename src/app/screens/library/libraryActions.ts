import {
  canOpenMedia,
  MSG,
  MSG_LIB,
  MSG_MEDIA,
  RETRY_ALL_LOCK_MS,
  RETRY_ALL_PER_SECOND,
  TOAST_MS,
  type Folder,
  type Library,
  type Media,
} from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import type { LibraryApi } from '../../api/library';
import type { Snapshot } from 'valtio';
import { createRateLimiter } from '../../state/rateLimiter';
import type { showToast } from '../../state/toasts';
import { openDialog, setSelected, type LibraryStore } from './libraryStore';

/** Retries (one, or all failed) start at most 2 a second (section 8). */
export const scheduleRetry = createRateLimiter(RETRY_ALL_PER_SECOND);

/** What the actions call outside the page's store: the API, toasts, navigation and the listing's cache. */
export interface LibraryActionDeps {
  api: Pick<LibraryApi, 'retry' | 'retryFailed'>;
  schedule: <T>(fn: () => Promise<T>) => Promise<T>;
  toast: typeof showToast;
  navigateToMedia: (media: Media) => void;
  download: (media: Media) => Promise<void>;
  /** Puts an updated media in the listing; `reload` asks for the listing again. */
  replace: (media: Media) => void;
  reload: () => void;
}

/** What an action sees: the library, who is signed in, the page's UI store and what is on screen. */
export interface LibraryActionContext {
  library: Library;
  /** The signed-in user's `isVerified` (false: adding waits for the email to be verified). */
  userVerified: boolean | undefined;
  /** The page's UI store (what `run` changes) and its snapshot of this render (what `canRun` reads). */
  store: LibraryStore;
  ui: Snapshot<LibraryStore>;
  /** The media shown after the filters (Select all takes these). */
  shown: readonly Media[];
  /** The media whose indexing failed (Retry all reports how many it could not retry). */
  failedIndexing: readonly Media[];
  deps: LibraryActionDeps;
}

export interface LibraryAction<Args extends unknown[]> {
  /** Null when the action can run, else why not: the disabled button's or menu item's tooltip. */
  canRun: (ctx: LibraryActionContext, ...args: Args) => string | null;
  run: (ctx: LibraryActionContext, ...args: Args) => void;
}

export const readOnlyReason = (library: Library) => (library.isReadOnly || library.isDemo ? MSG_LIB.readOnlyLibrary : null);
const readOnly = (ctx: LibraryActionContext) => readOnlyReason(ctx.library);
/** Adding (videos, folders) needs a verified email and a library that is not read-only. */
const addBlocked = (ctx: LibraryActionContext) => (ctx.userVerified === false ? MSG.verifyToAdd : readOnly(ctx));
const retryable = (m: Media) => m.status === 'errored' || m.status === 'failed';

function retry(ctx: LibraryActionContext, media: Media) {
  const { api, schedule, toast, replace } = ctx.deps;
  const failed = (message: string) => toast(message, { title: MSG_MEDIA.retryFailed, tone: 'error', durationMs: TOAST_MS.retryFailure });
  void schedule(() => api.retry(ctx.library._id, media._id)).then(
    ({ media: fresh, error }) => {
      if (error) failed(error);
      if (fresh) replace(fresh);
    },
    (e: unknown) => failed(errorMessage(e)),
  );
}

function retryAllFailed(ctx: LibraryActionContext) {
  const { api, schedule, toast, reload } = ctx.deps;
  const n = ctx.failedIndexing.filter(retryable).length;
  const opts = { durationMs: TOAST_MS.retrySummary };
  ctx.store.retryAllLocked = true;
  setTimeout(() => (ctx.store.retryAllLocked = false), RETRY_ALL_LOCK_MS);
  void schedule(() => api.retryFailed(ctx.library._id))
    .then(({ retried, failed }) => {
      const title = MSG_MEDIA.retryAllFailed(failed.length);
      if (!failed.length) toast(MSG_MEDIA.retryingAll(retried), { ...opts, tone: 'success' });
      else if (!retried) toast([...new Set(failed.map((f) => f.message))].join(', '), { ...opts, title, tone: 'error' });
      else toast(MSG_MEDIA.retriedMixed(retried, failed.length), opts);
    })
    .catch((e: unknown) => toast(errorMessage(e), { ...opts, title: MSG_MEDIA.retryAllFailed(n), tone: 'error' }))
    .finally(reload);
}

const define = <Args extends unknown[] = []>(action: LibraryAction<Args>) => action;
const always = () => null;

/** The library page's actions (Excalidraw's action manager): each button and menu item runs one by name. */
export const libraryActions = {
  addVideos: define({ canRun: addBlocked, run: (ctx) => openDialog(ctx.store, { kind: 'addVideos' }) }),
  newFolder: define({ canRun: addBlocked, run: (ctx) => openDialog(ctx.store, { kind: 'createFolder' }) }),
  renameFolder: define<[Folder]>({ canRun: readOnly, run: (ctx, folder) => openDialog(ctx.store, { kind: 'renameFolder', folder }) }),
  deleteFolder: define<[Folder]>({ canRun: readOnly, run: (ctx, folder) => openDialog(ctx.store, { kind: 'deleteFolder', folder }) }),
  renameMedia: define<[Media]>({ canRun: readOnly, run: (ctx, media) => openDialog(ctx.store, { kind: 'renameMedia', media }) }),
  deleteMedia: define<[Media]>({ canRun: readOnly, run: (ctx, media) => openDialog(ctx.store, { kind: 'deleteMedia', media }) }),
  deleteSelected: define({
    canRun: readOnly,
    run: (ctx) => openDialog(ctx.store, { kind: 'bulkDelete', mediaIds: [...ctx.store.selected] }),
  }),
  retry: define<[Media]>({ canRun: readOnly, run: retry }),
  retryAllFailed: define({
    canRun: (ctx) => readOnly(ctx) ?? (ctx.ui.retryAllLocked ? MSG_MEDIA.retryAllWait : null),
    run: retryAllFailed,
  }),
  downloadOriginal: define<[Media]>({
    canRun: (_ctx, media) => (media.status === 'uploading' ? MSG_MEDIA.stillUploading : null),
    run: (ctx, media) => void ctx.deps.download(media),
  }),
  openMedia: define<[Media]>({
    canRun: (_ctx, media) => (canOpenMedia(media) ? null : MSG_MEDIA.opensWhenReady),
    run: (ctx, media) => ctx.deps.navigateToMedia(media),
  }),
  selectAll: define({
    // As before the split: disabled once as many are selected as are shown.
    canRun: (ctx) => (ctx.ui.selected.size === ctx.shown.length ? MSG_MEDIA.allSelected : null),
    run: (ctx) => setSelected(ctx.store, [...ctx.store.selected, ...ctx.shown.map((m) => m._id)]),
  }),
  deselectAll: define({ canRun: always, run: (ctx) => setSelected(ctx.store, []) }),
  clearFilters: define({
    canRun: always,
    run: ({ store }) => {
      store.titleFilter = '';
      store.statusFilter = null;
    },
  }),
};

export type LibraryActionName = keyof typeof libraryActions;
type ArgsOf<N extends LibraryActionName> = (typeof libraryActions)[N] extends LibraryAction<infer A> ? A : never;

/** Runs the page's actions by name; `run` does nothing when `canRun` gives a reason (no dead buttons). */
export function createActionRunner(ctx: LibraryActionContext) {
  const action = <N extends LibraryActionName>(name: N) => libraryActions[name] as unknown as LibraryAction<ArgsOf<N>>;
  const canRun = <N extends LibraryActionName>(name: N, ...args: ArgsOf<N>) => action(name).canRun(ctx, ...args);
  const run = <N extends LibraryActionName>(name: N, ...args: ArgsOf<N>): boolean => {
    if (canRun(name, ...args) !== null) return false;
    action(name).run(ctx, ...args);
    return true;
  };
  /** A menu item's props for the action: disabled, with the reason as its hint, when it cannot run. */
  const menuItem = <N extends LibraryActionName>(name: N, ...args: ArgsOf<N>) => {
    const reason = canRun(name, ...args);
    return { onSelect: () => void run(name, ...args), disabled: reason !== null, hint: reason ?? undefined };
  };
  return { canRun, run, menuItem };
}

export type LibraryActionRunner = ReturnType<typeof createActionRunner>;
