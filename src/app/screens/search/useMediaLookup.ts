import { useEffect, useState } from 'react';
import type { Media } from '../../../contract';
import { libraryApi } from '../../api/instance';

/** Medias fetched by id for the query preview and the media pill, kept for the session of the page. */
const cache = new Map<string, Media | null>();

/**
 * The media of `mediaId`: from medias already known (search answers), else asked of each library
 * being searched in turn. Null while unknown or when no library has it.
 */
export function useMediaLookup(mediaId: string | null, libraryIds: readonly string[], known: Record<string, Media>): Media | null {
  const [found, setFound] = useState<Media | null>(null);
  const fromKnown = mediaId ? (known[mediaId] ?? null) : null;
  const libs = libraryIds.join(',');

  useEffect(() => {
    setFound(null);
    if (!mediaId || fromKnown) return;
    const hit = cache.get(mediaId);
    if (hit !== undefined) {
      setFound(hit);
      return;
    }
    let live = true;
    void (async () => {
      for (const lib of libs.split(',').filter(Boolean)) {
        try {
          const m = await libraryApi.media(lib, mediaId);
          cache.set(mediaId, m);
          if (live) setFound(m);
          return;
        } catch {
          // Not in this library: try the next.
        }
      }
    })();
    return () => {
      live = false;
    };
  }, [mediaId, fromKnown, libs]);

  return fromKnown ?? found;
}
