import { useQuery } from '@tanstack/react-query';
import type { Media } from '../../../contract';
import { libraryApi } from '../../api/instance';
import { queryKeys } from '../../api/queryKeys';
import { useAccountId } from '../../hooks/useAccountId';

/**
 * The media of `mediaId` (for the query preview and the media pill): from medias already known
 * (search answers), else asked of each library being searched in turn, as a query kept for the
 * account's session (one that no library has is asked again next time). Null while unknown or when
 * no library has it.
 */
export function useMediaLookup(mediaId: string | null, libraryIds: readonly string[], known: Record<string, Media>): Media | null {
  const accountId = useAccountId();
  const fromKnown = mediaId ? (known[mediaId] ?? null) : null;
  const libs = libraryIds.join(',');
  const query = useQuery({
    queryKey: queryKeys.mediaLookup(accountId ?? '', mediaId ?? '', libs),
    queryFn: async (): Promise<Media> => {
      for (const lib of libs.split(',').filter(Boolean)) {
        try {
          return await libraryApi.media(lib, mediaId!);
        } catch {
          // Not in this library: try the next.
        }
      }
      throw new Error('No library being searched has this media');
    },
    enabled: Boolean(mediaId) && !fromKnown && accountId !== null,
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    networkMode: 'always',
  });
  return fromKnown ?? query.data ?? null;
}
