import { mediaPath, MSG_MEDIA, type Media } from '../../contract';
import { showToast } from './toasts';

/** Copies `url` to the clipboard: 'Link copied', or 'Failed to copy link: Could not copy link to clipboard' (section 8). */
export async function copyLink(url: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(url);
    showToast(MSG_MEDIA.linkCopied, { tone: 'success' });
    return true;
  } catch {
    showToast(MSG_MEDIA.copyLinkFailed, { title: MSG_MEDIA.copyLinkFailedTitle, tone: 'error' });
    return false;
  }
}

/** The address that opens a media over its library page (the spec's /library/{id}/media/{mediaId}). */
export const mediaLink = (media: Pick<Media, 'libraryId' | '_id'>) => `${window.location.origin}${mediaPath(media.libraryId, media._id)}`;

export const copyMediaLink = (media: Pick<Media, 'libraryId' | '_id'>) => copyLink(mediaLink(media));
