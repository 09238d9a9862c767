import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { Library } from '../../contract';
import { errorMessage } from '../api/errorMessage';
import { libraryApi } from '../api/instance';
import { session } from './session';

/** The signed-in account's libraries, shared by the workspace, the libraries page and the library page. */
export const libraries = proxy<{ items: Library[] | null; status: 'idle' | 'loading' | 'ready' | 'error'; error: string | null }>({
  items: null,
  status: 'idle',
  error: null,
});

let inflight: Promise<Library[] | null> | null = null;

/** Loads the list (retried with backoff up to 3 times, as the spec asks of the default library load). */
export function loadLibraries(): Promise<Library[] | null> {
  inflight ??= (async () => {
    if (!libraries.items) libraries.status = 'loading';
    let lastError: unknown = null;
    for (let attempt = 0; attempt <= 3; attempt++) {
      if (attempt) await new Promise((r) => setTimeout(r, 500 * 2 ** (attempt - 1)));
      try {
        const items = await libraryApi.list();
        libraries.items = items;
        libraries.status = 'ready';
        libraries.error = null;
        return items;
      } catch (e) {
        lastError = e;
        if (!session.token) break;
      }
    }
    libraries.status = 'error';
    libraries.error = errorMessage(lastError);
    return null;
  })().finally(() => {
    inflight = null;
  });
  return inflight;
}

/** Puts a fresh copy of one library into the list (after create, rename or a page load). */
export function upsertLibrary(library: Library) {
  if (!libraries.items) return;
  const i = libraries.items.findIndex((l) => l._id === library._id);
  if (i >= 0) libraries.items[i] = library;
  else libraries.items.push(library);
}

export function dropLibrary(id: string) {
  if (libraries.items) libraries.items = libraries.items.filter((l) => l._id !== id);
}

// Another account's libraries must never show: the list goes with the session.
subscribeKey(session, 'token', (token) => {
  if (token) return;
  libraries.items = null;
  libraries.status = 'idle';
});
