import { queryOptions } from '@tanstack/react-query';
import type { Library } from '../../contract';
import { libraryApi } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { session } from './session';

/**
 * The signed-in account's libraries, shared by the workspace, the libraries page, the search page
 * and the download menu, as server state (`queryKeys.libraries(account)`). Removed with the
 * account's other queries when the session ends: another account's libraries never show.
 */
export const librariesQuery = (accountId: string | null) =>
  queryOptions({
    queryKey: queryKeys.libraries(accountId ?? ''),
    queryFn: () => libraryApi.list(),
    enabled: accountId !== null,
    // Retried with backoff up to 3 times (0.5, 1 and 2 s), as the spec asks of the default library
    // load; not once the session is gone.
    retry: (failures) => failures < 3 && session.token !== null,
    retryDelay: (failures) => 500 * 2 ** failures,
    networkMode: 'always',
    // Each screen that lists them asks afresh when it opens (they change on other devices too).
    staleTime: 0,
  });

const currentAccount = () => (session.token ? (session.claims?.sub ?? null) : null);

/** Puts a fresh copy of one library into the list (a library page's load), without asking again. */
export function upsertLibrary(library: Library) {
  const accountId = currentAccount();
  if (!accountId) return;
  queryClient.setQueryData<Library[]>(queryKeys.libraries(accountId), (items) => {
    if (!items) return items;
    const i = items.findIndex((l) => l._id === library._id);
    return i >= 0 ? items.map((l) => (l._id === library._id ? library : l)) : [...items, library];
  });
}

/**
 * After a library was created, renamed, deleted or uploaded into: the server's answer (if any) is
 * put into the list at once, and the list is asked again (counts, covers).
 */
export function invalidateLibraries(change?: { saved: Library } | { deleted: string }) {
  const accountId = currentAccount();
  if (!accountId) return Promise.resolve();
  const key = queryKeys.libraries(accountId);
  if (change && 'saved' in change) upsertLibrary(change.saved);
  else if (change) queryClient.setQueryData<Library[]>(key, (items) => items?.filter((l) => l._id !== change.deleted));
  return queryClient.invalidateQueries({ queryKey: key });
}
