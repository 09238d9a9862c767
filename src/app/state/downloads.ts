// Taking moments out (libraries spec sections 7-9): server renders polled to completion, retried
// with backoff, saved under the spec's names, with the spec's progress and outcome toasts.
import {
  MSG_DOWNLOAD,
  MSG_RENDER,
  RENDER_DEFAULT_HEIGHT,
  momentFilename,
  canAfford,
  renderCredits,
  toSrt,
  type MomentDownloadFormat,
  type RenderRange,
} from '../../contract';
import { isApiError } from '../api/ApiError';
import { renderingApi, searchApi } from '../api/instance';
import { creditsInfo, invalidateCredits } from './credits';
import { awaitRender, RenderFailedError, withRetry } from './renderPolling';
import { showProgressToast, showToast } from './toasts';

/** Saves `href` (a signed URL with Content-Disposition: attachment, or a blob: URL) as `filename`. */
export function saveAs(href: string, filename: string) {
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
}

export interface MomentToTake {
  libraryId: string;
  mediaId: string;
  /** The effective (trimmed) range. */
  start: number;
  end: number;
  libraryName: string;
  mediaName: string;
  /** The media's length: a range past its end is rendered, and paid for, to its end. */
  mediaDuration?: number | null;
}

/** What one moment's render covers, as the server measures it. */
const rangeOf = (m: Pick<MomentToTake, 'start' | 'end' | 'mediaDuration'>): RenderRange => ({
  start: m.start,
  end: m.end,
  mediaDuration: m.mediaDuration,
});

/**
 * The credits taking out `renders` (each one server render of its ranges) in `format` would cost,
 * and whether the balance covers it: a GIF and an MP4 each pay, the watermark-free price of each
 * render is the server's own (contract renderCredits), and nothing is paid unless the person chose
 * to remove the watermark for this download.
 */
export function downloadCost(renders: ReadonlyArray<readonly RenderRange[]>, format: MomentDownloadFormat, removeWatermark: boolean) {
  const files = format === 'both' ? 2 : format === 'srt' ? 0 : 1;
  const cost = removeWatermark ? files * renders.reduce((sum, ranges) => sum + renderCredits(ranges), 0) : 0;
  const balance = creditsInfo()?.creditsLeft ?? 0;
  // The server's gate (contract canAfford: the spec's purchase tolerance applies).
  return { cost, balance, enough: canAfford(balance, cost) };
}

/** The cost of one moment (one render a file), or of selected moments (one render each, each priced on its own). */
export const momentCost = (m: MomentToTake, format: MomentDownloadFormat, removeWatermark: boolean) =>
  downloadCost([[rangeOf(m)]], format, removeWatermark);
export const momentsCost = (list: readonly MomentToTake[], format: MomentDownloadFormat, removeWatermark: boolean) =>
  downloadCost(
    list.map((m) => [rangeOf(m)]),
    format,
    removeWatermark,
  );

/** Renders one file of a moment (with retries) and saves it; `onProgress` gets 0..1. */
async function takeOne(m: MomentToTake, kind: 'mp4' | 'gif' | 'srt', watermark: boolean, onProgress: (p: number) => void) {
  const filename = momentFilename(m.libraryName, m.mediaName, kind);
  if (kind === 'srt') {
    const { segments } = await withRetry(() => searchApi.transcript(m.libraryId, m.mediaId));
    const srt = toSrt(segments, { start: m.start, end: m.end });
    if (!srt) throw new Error(MSG_RENDER.noTranscript);
    const url = URL.createObjectURL(new Blob([srt], { type: 'application/x-subrip' }));
    saveAs(url, filename);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return;
  }
  const url = await withRetry(() =>
    awaitRender(
      () =>
        kind === 'gif'
          ? renderingApi.gif(m.libraryId, m.mediaId, { start: m.start, end: m.end, filename, watermark })
          : renderingApi.compilation({
              clips: [{ libraryId: m.libraryId, mediaId: m.mediaId, start: m.start, end: m.end }],
              height: RENDER_DEFAULT_HEIGHT,
              filename,
              watermark,
            }),
      (id) => renderingApi.status(id),
      onProgress,
      undefined,
      kind,
    ),
  );
  saveAs(url, filename);
}

const insufficient = (cost: number, balance: number) =>
  showToast(MSG_RENDER.insufficientCredits(cost, balance), {
    title: MSG_RENDER.insufficientCreditsTitle,
    tone: 'error',
    durationMs: MSG_DOWNLOAD.toastMs,
  });

/** Checks the balance for a watermark-free download; tells the user and answers false when short. */
function affordable({ cost, balance, enough }: ReturnType<typeof downloadCost>) {
  if (!enough) insufficient(cost, balance);
  return enough;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * One moment as MP4, GIF, both or SRT, with a progress toast until done; without the watermark only
 * when the person chose it for this download. Resolves true when saved.
 */
export async function downloadMoment(m: MomentToTake, format: MomentDownloadFormat, removeWatermark: boolean): Promise<boolean> {
  if (format !== 'srt' && !affordable(momentCost(m, format, removeWatermark))) return false;
  const kinds = format === 'both' ? (['mp4', 'gif'] as const) : ([format] as const);
  const toast = format === 'srt' ? null : showProgressToast(MSG_DOWNLOAD.progressText, { title: MSG_DOWNLOAD.progressTitle(format) });
  try {
    for (const [i, kind] of kinds.entries()) await takeOne(m, kind, !removeWatermark, (p) => toast?.update((i + p) / kinds.length));
    toast?.done();
    return true;
  } catch (e) {
    toast?.done();
    if (isApiError(e) && e.code === 'payment_required') {
      const { cost, balance } = momentCost(m, format, removeWatermark);
      insufficient(cost, balance);
    } else if (e instanceof RenderFailedError) {
      showToast(e.message, { title: e.title, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    } else if (format === 'srt' && messageOf(e) === MSG_RENDER.noTranscript) {
      showToast(MSG_RENDER.noTranscript, { tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    } else {
      showToast(MSG_DOWNLOAD.momentFailed, { title: MSG_DOWNLOAD.errorTitle, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    }
    return false;
  } finally {
    if (format !== 'srt') void invalidateCredits({ quiet: true });
  }
}

/** Several selected moments, one after another, each as `format`; failures are reported per moment. */
export async function downloadMoments(
  list: MomentToTake[],
  format: Exclude<MomentDownloadFormat, 'both'>,
  removeWatermark: boolean,
): Promise<number> {
  if (!list.length) return 0;
  if (format !== 'srt' && !affordable(momentsCost(list, format, removeWatermark))) return 0;
  const toast = showProgressToast(MSG_DOWNLOAD.selectionText, { title: MSG_DOWNLOAD.selectionTitle(list.length) });
  let saved = 0;
  let lastError = '';
  for (const [i, m] of list.entries()) {
    try {
      await takeOne(m, format, !removeWatermark, (p) => toast.update((i + p) / list.length));
      saved++;
    } catch (e) {
      lastError = messageOf(e);
      showToast(MSG_DOWNLOAD.selectionMomentFailed(lastError), {
        title: MSG_DOWNLOAD.selectionMomentFailedTitle(i + 1),
        tone: 'error',
        durationMs: MSG_DOWNLOAD.toastMs,
      });
    }
    toast.update((i + 1) / list.length);
  }
  toast.done();
  if (saved) showToast(MSG_DOWNLOAD.complete(saved), { title: MSG_DOWNLOAD.completeTitle, tone: 'success' });
  else showToast(MSG_DOWNLOAD.failed(lastError), { title: MSG_DOWNLOAD.failedTitle, tone: 'error' });
  if (format !== 'srt') void invalidateCredits({ quiet: true });
  return saved;
}
