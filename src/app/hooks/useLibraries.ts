import { useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { Library } from '../../contract';
import { errorMessage } from '../api/errorMessage';
import { librariesQuery } from '../state/libraries';
import { session } from '../state/session';

export interface LibrariesView {
  items: Library[] | null;
  /** 'loading' only while there is nothing to show yet; a refetch keeps the list on screen. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  /** Asks again (a Retry button). */
  reload: () => void;
}

/**
 * The libraries for a component: fetched when it mounts, kept on screen while asked again.
 * `pollMs` says how often to ask again given the list, or false (the workspace while the demo's samples index).
 * `refetchOnMount: false` reads what is there without asking (a menu inside a page that asked).
 */
export function useLibraries(
  options: { pollMs?: (items: Library[] | undefined) => number | false; refetchOnMount?: boolean } = {},
): LibrariesView {
  const { token, claims } = useSnapshot(session);
  const accountId = token ? (claims?.sub ?? null) : null;
  const query = useQuery({
    ...librariesQuery(accountId),
    refetchInterval: options.pollMs ? (query) => options.pollMs!(query.state.data) : false,
    refetchOnMount: options.refetchOnMount ?? 'always',
  });
  const items = query.data ?? null;
  // A failed load says so (a refetch with nothing on screen shows the spinner again); the message
  // stays until a load succeeds.
  const status = !accountId ? 'idle' : query.isError && !(query.isFetching && !items) ? 'error' : items ? 'ready' : 'loading';
  return {
    items,
    status,
    error: query.isError ? errorMessage(query.error) : null,
    reload: () => void query.refetch(),
  };
}
