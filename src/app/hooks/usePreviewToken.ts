import { useQueries, useQuery } from '@tanstack/react-query';
import { previewTokenQuery } from '../state/previewTokens';
import { useAccountId } from './useAccountId';

/**
 * A library's preview token for a component (null until there is one). With `fetch` (the default)
 * it is fetched when missing or about to expire; without, the component only reads what the page
 * asked for.
 */
export function usePreviewToken(libraryId: string | null | undefined, fetch = true): string | null {
  const accountId = useAccountId();
  const options = previewTokenQuery(accountId, libraryId ?? '');
  const query = useQuery({ ...options, enabled: fetch && options.enabled === true });
  return query.data?.token ?? null;
}

/** The preview tokens of several libraries, by library (those not there yet are missing); each fetched as `usePreviewToken` does. */
export function usePreviewTokens(libraryIds: readonly string[]): Record<string, string> {
  const accountId = useAccountId();
  return useQueries({
    queries: libraryIds.map((id) => previewTokenQuery(accountId, id)),
    combine: (results) => {
      const byLibrary: Record<string, string> = {};
      results.forEach((r, i) => {
        if (r.data) byLibrary[libraryIds[i]!] = r.data.token;
      });
      return byLibrary;
    },
  });
}
