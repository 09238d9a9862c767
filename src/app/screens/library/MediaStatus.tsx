import { useSnapshot } from 'valtio';
import { MEDIA_STATUS_LABEL, type Media, type MediaStatus } from '../../../contract';
import { shownProgress } from '../../state/uploadQueue';
import { uploads } from '../../state/uploads';
import { ProgressBar } from '../../ui/ProgressBar';
import { isFailedStatus } from './mediaListing';
import { formatEta } from '../../ui/format';

/** The spec's label of a status, or the status itself, capitalised, for those it does not name. */
export const statusLabel = (status: MediaStatus) => MEDIA_STATUS_LABEL[status] ?? status.charAt(0).toUpperCase() + status.slice(1);

const tone = (s: MediaStatus) => (s === 'completed' ? 'success' : isFailedStatus(s) ? 'danger' : s === 'cancelled' ? 'muted' : 'active');

/** The local upload of a media, if this tab is sending it. */
export function useUploadOf(mediaId: string) {
  const { items } = useSnapshot(uploads);
  return items.find((i) => i.mediaId === mediaId) ?? null;
}

/** Status badge with progress: upload progress (capped at 99%) and ETA, or indexing progress. */
export function MediaStatusView({ media, compact }: { media: Media; compact?: boolean }) {
  const upload = useUploadOf(media._id);
  const uploading = media.status === 'uploading';
  const progress = uploading ? (upload ? shownProgress(upload) : null) : media.status === 'processing' ? media.progress : null;
  const eta = uploading && upload ? formatEta(upload.eta) : null;
  return (
    <div className={`media-status${compact ? ' media-status--compact' : ''}`}>
      <span className={`status-badge status-badge--${tone(media.status)}`} data-status={media.status}>
        {statusLabel(media.status)}
        {progress !== null && <span className="status-badge__pct">{Math.floor(progress * 100)}%</span>}
      </span>
      {progress !== null && !compact && (
        <ProgressBar value={progress} label={`${statusLabel(media.status)} ${media.metadata.name}`} tone={uploading ? 'accent' : 'info'} />
      )}
      {eta && !compact && <span className="media-status__eta">{eta} left</span>}
    </div>
  );
}
