import type { StageHandler } from './stage';

/** A media imported from a link: fetched and stored as its original (only media of external origin run it). */
export const downloadStage: StageHandler = async ({ media, work, onProgress, deps }) => {
  if (!deps.download) throw new Error('link import is not configured');
  return deps.download(media, work, onProgress);
};
