import { useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { FAILED_SECTIONS, FAILED_STATUSES, MSG_MEDIA, PROCESSING_SECTIONS, TOAST_MS, type Media } from '../../../contract';
import { libraryApi } from '../../api/instance';
import { preferences, setPreference } from '../../state/preferences';
import { showToast } from '../../state/toasts';
import { shownProgress, type RejectedFile, type UploadItem } from '../../state/uploadQueue';
import { uploadQueue, uploads } from '../../state/uploads';
import { Accordion } from '../../ui/Accordion';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { IconRefresh, IconTrash } from '../../ui/icons';
import { ProgressBar } from '../../ui/ProgressBar';
import { ReasonTooltip } from '../../ui/Tooltip';
import { ServerFeaturesNotice } from './FeaturesOff';
import { useLibraryPage } from './LibraryContext';
import { readOnlyReason } from './libraryActions';
import { statusLabel } from './MediaStatus';
import { formatBytes, formatEta } from '../../ui/format';

/** This library's local uploads, failed uploads and rejected files, and the server media in each state. */
export function useStatusGroups(libraryId: string, files: readonly Media[]) {
  const { items, rejected } = useSnapshot(uploads);
  const mine = items.filter((i) => i.destination.libraryId === libraryId) as readonly UploadItem[];
  const localIds = new Set(mine.map((i) => i.mediaId).filter(Boolean));
  return {
    uploading: mine.filter((i) => i.status === 'uploading'),
    /** Server media still "uploading" that this tab is not sending (a closed tab left them). */
    strandedUploads: files.filter((m) => m.status === 'uploading' && !localIds.has(m._id)),
    queuedUploads: mine.filter((i) => i.status === 'queued'),
    failedUploads: mine.filter((i) => i.status === 'error'),
    rejected: rejected.filter((r) => r.libraryId === libraryId) as readonly RejectedFile[],
    indexing: files.filter((m) => m.status === 'processing'),
    queuedIndexing: files.filter((m) => m.status === 'queued'),
    failedIndexing: files.filter((m) => FAILED_STATUSES.includes(m.status)),
  };
}

export type StatusGroups = ReturnType<typeof useStatusGroups>;

/** The header counters: processing (uploads in flight + statusCounts' processing total) and failed. */
export function statusCounters(g: StatusGroups) {
  return {
    processing: g.uploading.length + g.strandedUploads.length + g.queuedUploads.length + g.indexing.length + g.queuedIndexing.length,
    failed: g.failedUploads.length + g.rejected.length + g.failedIndexing.length,
  };
}

function Row({ title, detail, children, progress }: { title: string; detail?: ReactNode; children?: ReactNode; progress?: ReactNode }) {
  return (
    <li className="status-row">
      <div className="status-row__main">
        <span className="status-row__title" title={title}>
          {title}
        </span>
        {detail && <span className="status-row__detail">{detail}</span>}
        {progress}
      </div>
      {children && <div className="status-row__actions">{children}</div>}
    </li>
  );
}

function List({ children, empty }: { children: ReactNode[]; empty: string }) {
  return children.length ? <ul className="status-list">{children}</ul> : <p className="status-list__empty">{empty}</p>;
}

/** Processing Videos: Uploading, Indexing, Queued for upload, Queued for indexing (section 2). */
export function ProcessingModal({ groups, onClose, onChanged }: { groups: StatusGroups; onClose: () => void; onChanged: () => void }) {
  const { library } = useLibraryPage();
  const { processingListModalActiveKeys } = useSnapshot(preferences);
  const [clearing, setClearing] = useState(false);
  const anyUploads = groups.uploading.length + groups.queuedUploads.length + groups.strandedUploads.length > 0;

  const clearStranded = async (m: Media) => {
    try {
      await libraryApi.clearUploads(library._id, [m._id]);
      showToast(MSG_MEDIA.uploadClearedOne(m.metadata.filename), { durationMs: TOAST_MS.clear });
    } catch {
      showToast(MSG_MEDIA.clearFailed, { tone: 'error' });
    }
    onChanged();
  };
  const clearAll = async () => {
    setClearing(true);
    await uploadQueue.clearAll(library._id);
    setClearing(false);
    onChanged();
  };

  const content: Record<(typeof PROCESSING_SECTIONS)[number]['key'], { count: number; body: ReactNode }> = {
    uploading: {
      count: groups.uploading.length + groups.strandedUploads.length,
      body: (
        <List empty="No uploads running.">
          {[
            ...groups.uploading.map((u) => (
              <Row
                key={u.uuid}
                title={u.filename}
                detail={`${Math.floor(shownProgress(u) * 100)}% of ${formatBytes(u.size)}${u.eta !== null ? ` · ${formatEta(u.eta)} left` : ''}`}
                progress={<ProgressBar value={shownProgress(u)} label={`Uploading ${u.filename}`} />}
              >
                <Button size="sm" variant="ghost" onClick={() => void uploadQueue.cancel(u.uuid)}>
                  Clear
                </Button>
              </Row>
            )),
            ...groups.strandedUploads.map((m) => (
              <Row key={m._id} title={m.metadata.filename} detail="Not being sent from this tab">
                <Button size="sm" variant="ghost" onClick={() => void clearStranded(m)}>
                  Clear
                </Button>
              </Row>
            )),
          ]}
        </List>
      ),
    },
    indexing: {
      count: groups.indexing.length,
      body: (
        <List empty="Nothing is being indexed.">
          {groups.indexing.map((m) => (
            <Row
              key={m._id}
              title={m.metadata.name}
              detail={`${statusLabel(m.status)} ${Math.floor(m.progress * 100)}%`}
              progress={<ProgressBar value={m.progress} label={`Indexing ${m.metadata.name}`} tone="info" />}
            />
          ))}
        </List>
      ),
    },
    'queued.upload': {
      count: groups.queuedUploads.length,
      body: (
        <List empty="No files waiting to upload.">
          {groups.queuedUploads.map((u) => (
            <Row key={u.uuid} title={u.filename} detail={formatBytes(u.size)}>
              <Button size="sm" variant="ghost" onClick={() => void uploadQueue.cancel(u.uuid)}>
                Clear
              </Button>
            </Row>
          ))}
        </List>
      ),
    },
    'queued.indexing': {
      count: groups.queuedIndexing.length,
      body: (
        <List empty="No files waiting to be indexed.">
          {groups.queuedIndexing.map((m) => (
            <Row key={m._id} title={m.metadata.name} detail={statusLabel(m.status)} />
          ))}
        </List>
      ),
    },
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={MSG_MEDIA.processingTitle}
      width={620}
      footer={
        <>
          {anyUploads && (
            <Button variant="secondary" busy={clearing} onClick={() => void clearAll()}>
              Clear all uploads
            </Button>
          )}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <ServerFeaturesNotice />
      <Accordion
        value={[...processingListModalActiveKeys]}
        onValueChange={(keys) => setPreference('processingListModalActiveKeys', keys)}
        sections={PROCESSING_SECTIONS.map((s) => ({
          key: s.key,
          title: s.label,
          aside: content[s.key].count,
          content: content[s.key].body,
        }))}
      />
    </Dialog>
  );
}

/** Failed Videos: Failed Uploads (with rejected files) and Failed Indexing, with retry and delete actions. */
export function FailedModal({ groups, onClose, onChanged }: { groups: StatusGroups; onClose: () => void; onChanged: () => void }) {
  const { library, actions } = useLibraryPage();
  const readOnly = readOnlyReason(library);
  const retryAllReason = actions.canRun('retryAllFailed');
  const { failedListModalActiveKeys } = useSnapshot(preferences);
  const [deleting, setDeleting] = useState(false);
  const retryable = groups.failedIndexing.filter((m) => m.status === 'errored' || m.status === 'failed');

  const deleteErrored = async () => {
    setDeleting(true);
    try {
      const { deleted, freedBytes } = await libraryApi.deleteErrored(library._id);
      showToast(MSG_MEDIA.bulkDeleted(deleted, formatBytes(freedBytes)), { tone: 'success', durationMs: TOAST_MS.bulkDelete });
    } catch {
      showToast(MSG_MEDIA.bulkDeleteFailed(groups.failedIndexing.length), { tone: 'error', durationMs: TOAST_MS.bulkDelete });
    }
    setDeleting(false);
    onChanged();
  };

  const content: Record<(typeof FAILED_SECTIONS)[number]['key'], { count: number; body: ReactNode }> = {
    'failed.uploads': {
      count: groups.failedUploads.length + groups.rejected.length,
      body: (
        <List empty="No failed uploads.">
          {[
            ...groups.failedUploads.map((u) => (
              <Row key={u.uuid} title={u.filename} detail={u.error ?? MSG_MEDIA.unexpectedStatus}>
                {u.fingerprint && (
                  <Button size="sm" variant="ghost" onClick={() => void uploadQueue.retry(u.uuid)}>
                    Retry
                  </Button>
                )}
                <Button size="sm" variant="ghost" onClick={() => void uploadQueue.cancel(u.uuid)}>
                  Clear
                </Button>
              </Row>
            )),
            ...groups.rejected.map((r) => (
              <Row key={r.id} title={r.name} detail={r.reason}>
                <Button size="sm" variant="ghost" onClick={() => uploadQueue.dismissRejected(r.id)}>
                  Dismiss
                </Button>
              </Row>
            )),
          ]}
        </List>
      ),
    },
    'failed.indexing': {
      count: groups.failedIndexing.length,
      body: (
        <List empty="No failed indexing.">
          {groups.failedIndexing.map((m) => (
            <Row key={m._id} title={m.metadata.name} detail={`${statusLabel(m.status)}${m.error?.message ? `: ${m.error.message}` : ''}`}>
              {(m.status === 'errored' || m.status === 'failed') && (
                <ReasonTooltip reason={actions.canRun('retry', m)}>
                  <Button size="sm" variant="ghost" disabled={actions.canRun('retry', m) !== null} onClick={() => actions.run('retry', m)}>
                    <IconRefresh size={14} /> Retry
                  </Button>
                </ReasonTooltip>
              )}
              <ReasonTooltip reason={actions.canRun('deleteMedia', m)}>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={actions.canRun('deleteMedia', m) !== null}
                  onClick={() => actions.run('deleteMedia', m)}
                  aria-label={`Delete ${m.metadata.name}`}
                >
                  <IconTrash size={14} />
                </Button>
              </ReasonTooltip>
            </Row>
          ))}
        </List>
      ),
    },
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={MSG_MEDIA.failedTitle}
      width={620}
      footer={
        <>
          {groups.failedIndexing.length > 0 && (
            <ReasonTooltip reason={readOnly}>
              <Button variant="secondary" busy={deleting} disabled={Boolean(readOnly)} onClick={() => void deleteErrored()}>
                <IconTrash size={16} /> Delete failed
              </Button>
            </ReasonTooltip>
          )}
          {retryable.length > 0 && (
            <ReasonTooltip reason={retryAllReason}>
              <Button variant="secondary" disabled={retryAllReason !== null} onClick={() => actions.run('retryAllFailed')}>
                <IconRefresh size={16} /> Retry all
              </Button>
            </ReasonTooltip>
          )}
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <ServerFeaturesNotice />
      <Accordion
        value={[...failedListModalActiveKeys]}
        onValueChange={(keys) => setPreference('failedListModalActiveKeys', keys)}
        sections={FAILED_SECTIONS.map((s) => ({ key: s.key, title: s.label, aside: content[s.key].count, content: content[s.key].body }))}
      />
    </Dialog>
  );
}
