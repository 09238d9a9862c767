import { Component, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  canOpenMedia,
  describeMissingFeature,
  FAILED_STATUSES,
  hasPoster,
  isWatchableWhileIndexing,
  MSG_LIB,
  MSG_MEDIA,
  type LibraryTab,
  type Media,
} from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { isPhoto, PhotoView } from '../../media/PhotoView';
import { libraryApi } from '../../api/instance';
import { copyMediaLink } from '../../state/clipboard';
import { usePreviewToken } from '../../hooks/usePreviewToken';
import { thumbnailUrl } from '../../state/previewTokens';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { IconDownload, IconLink } from '../../ui/icons';
import { Spinner } from '../../ui/Spinner';
import { MomentSidePanel } from '../../moment/MomentLines';
import { MomentPlayer, type MomentPlayerHandle } from '../../media/MomentPlayer';
import { MomentTimeline, timelineMediaOf } from '../../media/MomentTimeline';
import { IndexedWithout } from './FeaturesOff';
import { formatDate } from './MediaGrid';
import { originLabel, formatMediaSize } from './mediaListing';
import { MediaStatusView } from './MediaStatus';
import { MediaThumb } from './MediaThumb';
import { ACTIVE_POLL_MS } from './useLibraryMedia';
import { formatDuration } from '../../ui/format';

/** Starts a browser download of the media's original through a short-lived signed URL. */
export async function downloadOriginal(media: Media) {
  try {
    const { url } = await libraryApi.originalUrl(media.libraryId, media._id, media.metadata.filename);
    const a = document.createElement('a');
    a.href = url;
    a.download = media.metadata.filename;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } catch {
    showToast(MSG_MEDIA.downloadFailed, { tone: 'error' });
  }
}

/** A crash inside the modal stays inside it, with the spec's message, instead of taking down the page. */
class ModalBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('Media modal failed', error);
  }
  override render() {
    return this.state.failed ? (
      <Alert tone="error" title={MSG_MEDIA.modalErrorTitle}>
        {MSG_MEDIA.modalError}
      </Alert>
    ) : (
      this.props.children
    );
  }
}

/**
 * The media modal of /library/{id}/media/{mediaId}: loads the media (a missing one shows 'Media not
 * found' and returns to the library), shows the original for completed videos, the details, and a
 * download of the original.
 */
export function MediaModal({
  libraryId,
  mediaId,
  tab,
  onTabChange,
  onClose,
  onLoaded,
}: {
  libraryId: string;
  mediaId: string;
  /** The side panel's tab (the library address's `tab`). */
  tab: LibraryTab;
  onTabChange: (tab: LibraryTab) => void;
  onClose: () => void;
  onLoaded?: (m: Media) => void;
}) {
  const [media, setMedia] = useState<Media | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  // The page's callbacks may change identity on every render; the load depends on the ids only.
  const callbacks = useRef({ onClose, onLoaded });
  useEffect(() => {
    callbacks.current = { onClose, onLoaded };
  });

  useEffect(() => {
    let live = true;
    setMedia(null);
    setError(null);
    libraryApi.media(libraryId, mediaId).then(
      (m) => {
        if (!live) return;
        setMedia(m);
        callbacks.current.onLoaded?.(m);
      },
      (e: unknown) => {
        if (!live) return;
        // A malformed id is as missing as an unknown one.
        if (isApiError(e) && (e.code === 'not_found' || e.status === 400)) {
          showToast(MSG_LIB.mediaNotFound, { tone: 'error' });
          callbacks.current.onClose();
        } else setError(isApiError(e) ? e.message : MSG_MEDIA.modalError);
      },
    );
    return () => {
      live = false;
    };
  }, [libraryId, mediaId]);

  const download = async () => {
    if (!media) return;
    setDownloading(true);
    await downloadOriginal(media);
    setDownloading(false);
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={media?.metadata.name ?? 'Media'}
      width={media && watchable(media) ? 1120 : media && shownAsPhoto(media) ? 960 : 760}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
          <Button variant="secondary" onClick={() => media && void copyMediaLink(media)} disabled={!media}>
            <IconLink size={18} /> Copy link
          </Button>
          <Button onClick={() => void download()} busy={downloading} disabled={!media || media.status === 'uploading'}>
            <IconDownload size={18} /> Download original
          </Button>
        </>
      }
    >
      <ModalBoundary>
        {error ? (
          <Alert tone="error">{error}</Alert>
        ) : !media ? (
          <div className="media-modal__loading">
            <Spinner size={28} label="Loading media" />
          </div>
        ) : (
          <MediaDetails media={media} tab={tab} onTabChange={onTabChange} />
        )}
      </ModalBoundary>
    </Dialog>
  );
}

/** Videos with a preview play in the moment viewer's player (full video only), completed or still indexing. */
const watchable = (media: Media) => canOpenMedia(media) && media.kind === 'video' && media.capabilities.preview;
/** A photo is shown as itself once uploaded and while it reads (its picture is made on first sight). */
const shownAsPhoto = (media: Media) => isPhoto(media) && media.status !== 'uploading' && !FAILED_STATUSES.includes(media.status);

function MediaDetails({ media, tab, onTabChange }: { media: Media; tab: LibraryTab; onTabChange: (tab: LibraryTab) => void }) {
  // The library page asks for the token; the modal reads it.
  const token = usePreviewToken(media.libraryId, false);
  const [src, setSrc] = useState<string | null>(null);
  const streamed = watchable(media);
  const playable = media.status === 'completed' && media.kind === 'video' && !streamed;

  useEffect(() => {
    if (!playable) return;
    let live = true;
    // The original plays straight from its signed URL; the moment viewer brings streaming later.
    libraryApi.originalUrl(media.libraryId, media._id).then(
      ({ url }) => live && setSrc(url),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [playable, media.libraryId, media._id]);

  const v = media.metadata.video;
  // A photo has no duration or frames to speak of.
  const photo = isPhoto(media);
  const rows: Array<[string, ReactNode]> = [
    ['Status', <MediaStatusView key="s" media={media} />],
    ['File name', media.metadata.filename],
    ...(photo ? [] : [['Duration', v.duration > 0 ? formatDuration(v.duration) : '—'] as [string, ReactNode]]),
    ['Size', formatMediaSize(media)],
    ['Dimensions', v.width && v.height ? `${v.width} × ${v.height}` : '—'],
    ...(photo ? [] : [['Frames', v.frameCount || '—'] as [string, ReactNode]]),
    ['Source', originLabel(media)],
    ['Added', formatDate(media.createdAt)],
  ];
  if (media.status === 'completed' && media.missingFeatures.some((m) => !describeMissingFeature(m).optional))
    rows.push(['Indexed without', <IndexedWithout key="w" missing={media.missingFeatures} />]);
  return (
    <div className="media-modal">
      {streamed ? (
        <MediaViewer media={media} tab={tab} onTabChange={onTabChange} />
      ) : shownAsPhoto(media) ? (
        <PhotoView media={media} />
      ) : (
        <div className="media-modal__player">
          {playable && src ? (
            <video
              className="media-modal__video"
              src={src}
              poster={token && hasPoster(media) ? thumbnailUrl(media.libraryId, media._id, token) : undefined}
              controls
              preload="auto"
              aria-label={`Video ${media.metadata.name}`}
            />
          ) : (
            <MediaThumb media={media} />
          )}
        </div>
      )}
      {media.error?.message && (
        <Alert tone="error" title={MSG_MEDIA.erroredOverlay}>
          {media.error.message}
        </Alert>
      )}
      <dl className="media-modal__details">
        {rows.map(([k, v]) => (
          <div key={k} className="media-modal__detail">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * While indexing goes on: says so, with the progress, until the media is completed. The player keeps
 * the media it was given (a new object would restart it); only this note follows the server.
 */
function IndexingNote({ media }: { media: Media }) {
  const [live, setLive] = useState(media);
  const indexing = isWatchableWhileIndexing(live);
  useEffect(() => {
    if (!indexing) return;
    const timer = setInterval(
      () =>
        void libraryApi.media(media.libraryId, media._id).then(
          (m) => setLive(m),
          () => undefined,
        ),
      ACTIVE_POLL_MS,
    );
    return () => clearInterval(timer);
  }, [indexing, media.libraryId, media._id]);
  if (!indexing) return null;
  return (
    <p className="media-view__indexing" role="status">
      <Spinner size={14} label="" /> {MSG_MEDIA.stillIndexing(live.progress)}
    </p>
  );
}

/** The player with its timeline and the transcript and visual summary, over the whole media. */
function MediaViewer({ media, tab, onTabChange }: { media: Media; tab: LibraryTab; onTabChange: (tab: LibraryTab) => void }) {
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  const player = useRef<MomentPlayerHandle>(null);
  const timelineMedia = useMemo(() => timelineMediaOf(media), [media]);
  const onSeek = useCallback((t: number) => player.current?.seek(t), []);
  // A media has no moment range to edit: the timeline only shows and seeks.
  const onRangeCommit = useCallback(() => undefined, []);
  return (
    <div className="media-view">
      <div className="media-view__main">
        <IndexingNote media={media} />
        <MomentPlayer ref={player} media={media} libraryId={media.libraryId} mediaId={media._id} range={null} onVideo={setVideo} />
        <MomentTimeline media={timelineMedia} source={media} range={null} onRangeCommit={onRangeCommit} video={video} />
      </div>
      <MomentSidePanel
        libraryId={media.libraryId}
        mediaId={media._id}
        defaultTab={tab}
        tab={tab}
        onTabChange={onTabChange}
        video={video}
        highlight={null}
        onSeek={onSeek}
      />
    </div>
  );
}
