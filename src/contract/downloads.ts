import { sanitiseFilename } from './rendering';

// What the web app says and does while it takes moments out (libraries spec sections 8 and 9).

/** The formats a moment is offered in (section 9: mp4, gif, both); SRT is its transcript. */
export type MomentDownloadFormat = 'mp4' | 'gif' | 'both' | 'srt';

export const DOWNLOAD_FORMAT_LABEL: Record<MomentDownloadFormat, string> = {
  mp4: 'MP4',
  gif: 'GIF',
  both: 'MP4 and GIF',
  srt: 'SRT',
};

/** Download retry (section 9): up to 5 attempts, exponential backoff from 1000 ms. */
export const DOWNLOAD_RETRY = { attempts: 5, baseMs: 1000 } as const;

/** The toasts of downloads, verbatim (section 8), and how long the timed ones stay. */
export const MSG_DOWNLOAD = {
  progressTitle: (format: Exclude<MomentDownloadFormat, 'srt'>) => `Downloading moment as ${DOWNLOAD_FORMAT_LABEL[format]}`,
  progressText: 'Please wait a bit.',
  /** The merge editor's download: one compilation of its clips (the spec names no title; it says 'compilation' as its failure does). */
  compilationTitle: 'Downloading compilation as MP4',
  errorTitle: 'Error',
  momentFailed: 'Failed to download moment',
  selectionTitle: (n: number) => `Downloading ${n} moment(s)...`,
  selectionText: 'Please do not close this tab.',
  selectionMomentFailedTitle: (n: number) => `Failed to download moment ${n}`,
  selectionMomentFailed: (message: string) => `Error: ${message}`,
  completeTitle: 'Download Complete',
  complete: (n: number) => `Successfully downloaded ${n} moment(s)`,
  failedTitle: 'Download Failed',
  failed: (message: string) => `Failed to download moments: ${message}`,
  removeWatermark: 'Remove watermark',
  /** Under 'Remove watermark': what it costs and what is left ('96 credits · 19,440 left', '17 credits per file · …'). */
  removeWatermarkCost: (cost: number, balance: number, per?: 'per file' | 'per moment') =>
    `${cost.toLocaleString('en-US')} credits${per ? ` ${per}` : ''} · ${Math.floor(balance).toLocaleString('en-US')} left`,
  /** On a download's button or format while the watermark is to be removed: what it will cost. */
  credits: (cost: number) => `${cost.toLocaleString('en-US')} credits`,
  toastMs: 3000,
} as const;

/** `{library}_{media}.mp4` (section 7), made safe the way the server names its files. */
export function momentFilename(libraryName: string, mediaName: string, ext: 'mp4' | 'gif' | 'srt'): string {
  return sanitiseFilename(`${libraryName}_${mediaName.replace(/\.[a-z0-9]{2,4}$/i, '')}`, 'moment', ext);
}
