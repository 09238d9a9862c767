import { MSG_MEDIA, TOAST_MS, UNSUPPORTED_FILE_TYPE } from '../../contract';
import { noteLibrariesUsed } from '../state/lastLibraries';
import { showToast } from '../state/toasts';
import { uploadQueue } from '../state/uploads';
import type { UploadDestination } from '../state/uploadQueue';
import { partitionFiles } from './dropFiles';

/**
 * Hands files to the upload queue: unsupported ones are recorded as rejected (they show under
 * Failed Uploads); when a drop brought nothing usable, the user is told where to look.
 */
export async function enqueueFiles(
  files: File[],
  destination: UploadDestination,
  options: { knownUniqueIds?: Iterable<string>; dropped?: boolean } = {},
) {
  const { accepted, rejected } = partitionFiles(files);
  if (rejected.length) uploadQueue.reject(rejected, destination.libraryId, UNSUPPORTED_FILE_TYPE);
  if (!accepted.length) {
    if (rejected.length) showToast(MSG_MEDIA.allDroppedRejected, { tone: 'error', durationMs: TOAST_MS.dragError });
    return { queued: 0, duplicates: 0, rejected: rejected.length };
  }
  // The search page opens next on the library uploaded into.
  noteLibrariesUsed([destination.libraryId]);
  const result = await uploadQueue.add(accepted, destination, options.knownUniqueIds);
  return { ...result, rejected: rejected.length };
}
