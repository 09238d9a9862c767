import { proxy, ref } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { MSG_LIB, MSG_MEDIA, TOAST_MS } from '../../contract';
import { fingerprintFile } from '../../workers/fingerprint/fingerprintClient';
import { libraryApi } from '../api/instance';
import { API_BASE } from '../config';
import { invalidateCredits } from './credits';
import { invalidateLibraries } from './libraries';
import { session } from './session';
import { playDoneSound } from './sounds';
import { showProgressToast, showToast, type ProgressToast } from './toasts';
import { batchReport } from './uploadBatchReport';
import { UploadQueue, type UploadQueueState, type UploadTransport } from './uploadQueue';

/** Uploads of this tab (queued, running, failed) and files a drop rejected; rendered by the library pages. */
export const uploads = proxy<UploadQueueState>({ items: [], rejected: [], version: 0 });

/** Part URLs may be relative to the API (local blob store) or absolute (an S3-compatible store). */
const partUrl = (url: string) => new URL(url, API_BASE || window.location.origin).href;

/** Reads the envelope's error message from a refused part, when the store sent one as JSON. */
function partError(xhr: XMLHttpRequest) {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // msgpack, XML (S3) or empty: the status says enough.
  }
  return `Part upload answered ${xhr.status}`;
}

/** The real transport: the library API for start/finish/clear, XHR for parts (it reports upload progress). */
const transport: UploadTransport = {
  fingerprint: (file) => fingerprintFile(file),
  start: ({ libraryId, folderId }, body) => libraryApi.uploadStart(libraryId, folderId, body),
  finish: ({ libraryId }, mediaId, opaqueData) => libraryApi.uploadFinish(libraryId, mediaId, opaqueData),
  clear: (libraryId, mediaIds) => libraryApi.clearUploads(libraryId, mediaIds),
  putPart: (url, chunk, onProgress, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal.aborted) return reject(new DOMException('Aborted', 'AbortError'));
      const xhr = new XMLHttpRequest();
      const abort = () => xhr.abort();
      const done = () => signal.removeEventListener('abort', abort);
      xhr.open('PUT', partUrl(url));
      xhr.setRequestHeader('Accept', 'application/json');
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        done();
        if (xhr.status >= 200 && xhr.status < 300) resolve();
        else reject(new Error(partError(xhr)));
      };
      xhr.onerror = () => {
        done();
        reject(new Error('Network error while uploading a part'));
      };
      xhr.onabort = () => {
        done();
        reject(new DOMException('Aborted', 'AbortError'));
      };
      signal.addEventListener('abort', abort);
      xhr.send(chunk);
    }),
};

/** The one toast of each batch of uploads still running: a progress toast until the batch settles. */
const batchToasts = new Map<number, ProgressToast>();

export const uploadQueue = new UploadQueue(
  uploads,
  transport,
  {
    queued: ({ id, count }) => batchToasts.set(id, showProgressToast(MSG_MEDIA.filesQueued(count))),
    batchProgress: (id, fraction) => batchToasts.get(id)?.update(fraction),
    batchSettled: (outcome) => {
      const toast = batchToasts.get(outcome.id);
      batchToasts.delete(outcome.id);
      if (outcome.succeeded > 0) playDoneSound('upload');
      const report = batchReport(outcome);
      if (!report) toast?.dismiss();
      else if (toast) toast.settle(report);
      else showToast(report.message, report);
    },
    duplicates: (n) =>
      showToast(n === 1 ? MSG_LIB.duplicateInFolder : MSG_LIB.duplicatesInFolder, { title: MSG_MEDIA.duplicatesSkipped(n) }),
    cleared: (what, ok) => {
      if (what === 'all') {
        if (ok) showToast(MSG_MEDIA.allUploadsCleared, { durationMs: TOAST_MS.clear });
        else showToast(MSG_MEDIA.clearSomeFailed, { tone: 'error' });
      } else if (ok) showToast(MSG_MEDIA.uploadClearedOne(what.filename), { durationMs: TOAST_MS.clear });
      else showToast(MSG_MEDIA.clearFailed, { tone: 'error' });
    },
    drained: () => {
      // Credits are refetched after uploads (sections 4 and 7), and the libraries' counts.
      void invalidateCredits();
      void invalidateLibraries();
    },
  },
  { keepFile: (file) => ref(file) },
);

/** Leaving the page would stop running uploads: the browser asks first. */
window.addEventListener('beforeunload', (event) => {
  if (!uploadQueue.busy) return;
  event.preventDefault();
});

// Uploads belong to the session that started them.
subscribeKey(session, 'token', (token) => {
  if (!token) uploadQueue.abortAll();
});
