import { MSG_MEDIA, TOAST_MS } from '../../contract';
import type { ToastTone } from './toastQueue';
import type { UploadBatchOutcome } from './uploadQueue';

export interface BatchReport {
  title: string;
  message: string;
  tone: ToastTone;
  durationMs?: number;
}

/** Failures listed in one toast; more are counted. */
const LISTED_FAILURES = 3;
const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;

/**
 * What the one toast of a settled upload batch says (libraries spec section 7 wording). A batch of
 * which nothing uploaded reads 'File upload failed' with 'Failed to upload {filename}: {message}' for
 * each failed file (10 s); one that uploaded something reads 'Upload batch completed', with its
 * failures when it had some. A batch that was only cleared or skipped says nothing here: the
 * clear and duplicate toasts already did.
 */
export function batchReport(outcome: Omit<UploadBatchOutcome, 'id'>): BatchReport | null {
  const { succeeded, failed } = outcome;
  if (!succeeded && !failed.length) return null;
  const lines = failed.slice(0, LISTED_FAILURES).map((f) => MSG_MEDIA.uploadFailed(f.filename, f.message));
  if (failed.length > LISTED_FAILURES) lines.push(`${files(failed.length - LISTED_FAILURES)} more failed.`);
  if (!succeeded)
    return { title: MSG_MEDIA.uploadFailedTitle, message: lines.join('\n'), tone: 'error', durationMs: TOAST_MS.uploadFailure };
  const summary = `${files(succeeded)} uploaded${failed.length ? `, ${failed.length} failed` : ''}.`;
  if (!failed.length) return { title: MSG_MEDIA.uploadBatchCompleted, message: summary, tone: 'success' };
  return {
    title: MSG_MEDIA.uploadBatchCompleted,
    message: [summary, ...lines].join('\n'),
    tone: 'error',
    durationMs: TOAST_MS.uploadFailure,
  };
}
