import { useQuery } from '@tanstack/react-query';
import type { FramingAnswer, RenderAspect } from '../../contract';
import { renderingApi } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { useAccountId } from '../hooks/useAccountId';
import { session } from '../state/session';

/**
 * Issue 39: the automatic crop path of a media range for an aspect (API.mediaFraming), one query per
 * range: the clip editor draws the window along it and the local preview crops along it, so both
 * show what the server renders. Not retried on a refusal: without it the window is centred (what the
 * server does when it finds nothing), and the editor says so.
 */
const options = (accountId: string, libraryId: string, mediaId: string, aspect: RenderAspect, start: number, end: number) => ({
  queryKey: queryKeys.framing(accountId, libraryId, mediaId, aspect, start, end),
  queryFn: ({ signal }: { signal: AbortSignal }) => renderingApi.framing(libraryId, mediaId, { aspect, start, end }, signal),
  retry: 1,
  staleTime: 5 * 60_000,
});

export function useFramingPath(libraryId: string, mediaId: string, aspect: RenderAspect, start: number, end: number, enabled: boolean) {
  const accountId = useAccountId();
  return useQuery({ ...options(accountId ?? '', libraryId, mediaId, aspect, start, end), enabled: enabled && Boolean(accountId) });
}

/** The path for the preview build, from the cache when the editor already asked; null when it cannot be had. */
export async function framingPath(
  libraryId: string,
  mediaId: string,
  aspect: RenderAspect,
  start: number,
  end: number,
): Promise<FramingAnswer | null> {
  try {
    return await queryClient.fetchQuery(options((session.token && session.claims?.sub) || '', libraryId, mediaId, aspect, start, end));
  } catch {
    return null;
  }
}
