// Issue 39: what a compilation (or one moment) hands over besides its MP4: its subtitles (SRT or
// WebVTT), a project for a video editor, and the original files that project references. Each is a
// file the server answers (retried like every download); failures say what failed, nothing is charged.
import {
  EXPORT_FORMAT_EXTENSIONS,
  MSG_DOWNLOAD,
  MSG_PUBLISH,
  MSG_RENDER,
  RENDER_ASPECT_DEFAULT,
  sanitiseFilename,
  type ExportFormat,
  type RenderAspect,
  type SubtitleFormat,
} from '../../contract';
import { isApiError } from '../api/ApiError';
import type { FileAnswer } from '../api/client';
import { libraryApi, renderingApi } from '../api/instance';
import { compilationClips, type CompilationRange } from './compilation';
import { saveAs } from './downloads';
import { withRetry } from './renderPolling';
import { showToast } from './toasts';

/** Saves a file the API answered under its own name (else `fallback`), through a blob: URL freed a minute later. */
function saveFile(file: FileAnswer, fallback: string) {
  const url = URL.createObjectURL(file.blob);
  saveAs(url, file.filename || fallback);
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The error toast of a failed hand-over: the server's reason when it refused (a 4xx), else `what` failed. */
function failed(title: string, e: unknown) {
  const message = isApiError(e) && e.status < 500 ? e.message : MSG_RENDER.failedReason;
  showToast(message, { title, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
}

/** The compilation's transcript as subtitles, cut and re-timed to its clips. Resolves true when saved. */
export async function downloadSubtitles(clips: readonly CompilationRange[], format: SubtitleFormat, baseName: string): Promise<boolean> {
  const filename = sanitiseFilename(baseName, 'compilation', format);
  try {
    const file = await withRetry(() => renderingApi.subtitles({ clips: compilationClips(clips), format, filename }));
    saveFile(file, filename);
    return true;
  } catch (e) {
    if (isApiError(e) && e.status === 404 && e.message === MSG_RENDER.noTranscript)
      showToast(MSG_RENDER.noTranscript, { tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    else failed(MSG_PUBLISH.subtitlesFailed, e);
    return false;
  }
}

/** The compilation as a video editor's project (referencing the originals by name). Resolves true when saved. */
export async function downloadExport(
  clips: readonly CompilationRange[],
  format: ExportFormat,
  baseName: string,
  aspect: RenderAspect = RENDER_ASPECT_DEFAULT,
): Promise<boolean> {
  const filename = sanitiseFilename(baseName, 'compilation', EXPORT_FORMAT_EXTENSIONS[format] as ExportFormat);
  try {
    const file = await withRetry(() =>
      renderingApi.exportProject({ clips: compilationClips(clips), format, filename, ...(aspect !== 'source' ? { aspect } : {}) }),
    );
    saveFile(file, filename);
    return true;
  } catch (e) {
    failed(MSG_PUBLISH.exportFailed, e);
    return false;
  }
}

/** One referenced original, through its signed link (Content-Disposition: attachment). Resolves true when started. */
export async function downloadOriginal(libraryId: string, mediaId: string, name: string): Promise<boolean> {
  try {
    const { url } = await withRetry(() => libraryApi.originalUrl(libraryId, mediaId, name));
    saveAs(url, name);
    return true;
  } catch (e) {
    failed(MSG_PUBLISH.originalFailed, e);
    return false;
  }
}
