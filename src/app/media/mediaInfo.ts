// What a moment's card, dialog, download menu and merge list say about its media.
import type { Library, Media, Moment } from '../../contract';

/** The media's original link, when it came from an http(s) address (anything else gets no icon). */
export function externalUrlOf(media: Media | undefined): string | null {
  const url = media?.origin.url;
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

export const canPreview = (moment: Moment, media: Media | undefined) =>
  Boolean(media && media.kind === 'video' && media.capabilities.preview && moment.endTime > moment.startTime);

/** The picture's displayed size (rotation applied), when the media has one. */
export function pictureSizeOf(media: Media | undefined): { width: number; height: number } | null {
  const v = media?.metadata.video;
  return v && v.width > 0 && v.height > 0 ? { width: v.width, height: v.height } : null;
}

/** The media's name as users gave it, else its file name. */
export const mediaNameOf = (media: Media | undefined) => media?.metadata.name || media?.metadata.filename || 'Untitled media';

/** The search's selected moments as the selection bar's actions take them: with their media and the libraries they are in. */
export interface SelectedMoments {
  moments: Moment[];
  medias: Record<string, Media>;
  libraries: readonly Library[];
}
