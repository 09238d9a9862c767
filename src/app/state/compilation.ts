// The merge dialog's download (libraries spec sections 7-9): the server's compilation render of the
// editor's clips in their order and ranges, MP4 only, without the watermark only when chosen for it.
import {
  MSG_DOWNLOAD,
  MSG_MERGE,
  MSG_RENDER,
  RENDER_DEFAULT_HEIGHT,
  momentFilename,
  type CaptionsOption,
  type CompilationClip,
  type RenderAspect,
} from '../../contract';
import { isApiError } from '../api/ApiError';
import { renderingApi } from '../api/instance';
import { invalidateCredits } from './credits';
import { downloadCost, saveAs } from './downloads';
import { awaitRender, RenderFailedError, withRetry } from './renderPolling';
import { showProgressToast, showToast } from './toasts';

/** One compilation render of `clips` (each with its media's length, which cuts a range past the end). */
export type CompilationRange = CompilationClip & { mediaDuration?: number | null };

/** What the compilation of `clips` costs without the watermark: the server's charge (contract renderCredits). */
export const compilationCost = (clips: readonly CompilationRange[], removeWatermark: boolean) =>
  downloadCost([clips], 'mp4', removeWatermark);

/** Issue 39: the picture's shape and the captions of a compilation (absent: the source's shape, none). */
export interface PublishChoice {
  aspect?: RenderAspect;
  captions?: CaptionsOption;
}

/** A compilation's clips as the server takes them: the range, and the crop window's centre when the user fixed it. */
export const compilationClips = (clips: readonly CompilationRange[]): CompilationClip[] =>
  clips.map(({ libraryId, mediaId, start, end, framing }) => ({ libraryId, mediaId, start, end, ...(framing ? { framing } : {}) }));

/** The body's publish fields: only what differs from the defaults, so a plain download asks what it always asked. */
export function publishFields({ aspect, captions }: PublishChoice): PublishChoice {
  const out: PublishChoice = {};
  if (aspect && aspect !== 'source') out.aspect = aspect;
  if (captions && (captions.burn || captions.soft))
    out.captions = { ...(captions.burn ? { burn: captions.burn } : {}), ...(captions.soft ? { soft: true } : {}) };
  return out;
}

/**
 * Renders `clips` as one MP4 (retried, polled) and saves it as `{name}.mp4` (`{library}_compilation.mp4`
 * unless named), without the watermark only when the person chose it for this download, in the
 * chosen shape and with the chosen captions (free: the price is the same). Resolves true when saved.
 */
export async function downloadCompilation(
  clips: CompilationRange[],
  libraryName: string,
  removeWatermark: boolean,
  choice: PublishChoice = {},
  mediaName = 'compilation',
): Promise<boolean> {
  const { cost, balance, enough } = compilationCost(clips, removeWatermark);
  const insufficient = () =>
    showToast(MSG_RENDER.insufficientCredits(cost, balance), {
      title: MSG_RENDER.insufficientCreditsTitle,
      tone: 'error',
      durationMs: MSG_DOWNLOAD.toastMs,
    });
  if (!enough) {
    insufficient();
    return false;
  }
  const filename = momentFilename(libraryName, mediaName, 'mp4');
  const toast = showProgressToast(MSG_DOWNLOAD.progressText, { title: MSG_DOWNLOAD.compilationTitle });
  try {
    const url = await withRetry(() =>
      awaitRender(
        () =>
          renderingApi.compilation({
            clips: compilationClips(clips),
            height: RENDER_DEFAULT_HEIGHT,
            filename,
            watermark: !removeWatermark,
            ...publishFields(choice),
          }),
        (id) => renderingApi.status(id),
        (p) => toast.update(p),
      ),
    );
    toast.done();
    saveAs(url, filename);
    return true;
  } catch (e) {
    toast.done();
    if (isApiError(e) && e.code === 'payment_required') insufficient();
    else if (e instanceof RenderFailedError) showToast(e.message, { title: e.title, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    else showToast(MSG_MERGE.compilationFailed, { title: MSG_DOWNLOAD.errorTitle, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    return false;
  } finally {
    void invalidateCredits({ quiet: true });
  }
}
