import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { MSG_SEARCH_UI, type Media, type Moment } from '../../../contract';
import { searchApi } from '../../api/instance';
import { ensurePreviewToken, previewTokens, thumbnailUrl } from '../../state/previewTokens';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { IconAlert, IconFilm, IconSearch, IconSimilar } from '../../ui/icons';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { attachPlayer, previewPlaylistUrl, type PlayerHandle } from './momentPlayer';
import { canPreview, mediaNameOf } from './MomentCard';
import { formatMomentLength, formatTimecode } from './momentFormat';

type MomentMode = 'moment' | 'full';
type DialogTab = 'visual' | 'transcript';

interface Line {
  start: number;
  end: number;
  text: string;
}

type Loaded = { status: 'loading' } | { status: 'ready'; lines: Line[] } | { status: 'error' };

/** Loads the media's transcript or shot descriptions once the dialog opens. */
function useMomentData(moment: Moment, kind: DialogTab): Loaded {
  const [state, setState] = useState<Loaded>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    const load: Promise<Line[]> =
      kind === 'transcript'
        ? searchApi.transcript(moment.libraryId, moment.mediaId, controller.signal).then((f) => f.segments.filter((s) => s.text.trim()))
        : searchApi
            .shotDescriptions(moment.libraryId, moment.mediaId, controller.signal)
            .then((f) => f.descriptions.filter((d) => d.desc.trim()).map((d) => ({ start: d.start, end: d.end, text: d.desc })));
    load.then(
      (lines) => !controller.signal.aborted && setState({ status: 'ready', lines }),
      () => !controller.signal.aborted && setState({ status: 'error' }),
    );
    return () => controller.abort();
  }, [moment.libraryId, moment.mediaId, kind]);
  return state;
}

const overlaps = (l: Line, m: Moment) => l.start < m.endTime && l.end > m.startTime;

/**
 * A simple moment dialog (spec section 2): the moment's video with a Moment / Full video toggle, and
 * the transcript and visual summary of its media, the moment's own lines marked. The zoomable
 * timeline with draggable boundaries comes with the clip editor.
 */
export function MomentModal({
  moment,
  media,
  libraryLabel,
  onClose,
  onSimilar,
  onSearchInMedia,
}: {
  moment: Moment;
  media: Media | undefined;
  libraryLabel: string | null;
  onClose: () => void;
  onSimilar: (m: Moment) => void;
  /** Absent when the search is already within this media. */
  onSearchInMedia?: (m: Moment) => void;
}) {
  const [mode, setMode] = useState<MomentMode>('moment');
  const [tab, setTab] = useState<DialogTab>(moment.text.trim() ? 'transcript' : 'visual');
  const name = mediaNameOf(media);
  const range = `${formatTimecode(moment.startTime)} – ${formatTimecode(moment.endTime)}`;

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={1040}
      title={name}
      description={
        <span className="moment-dialog__meta">
          <span className="time-chip">{range}</span>
          <span>{formatMomentLength(moment.endTime - moment.startTime)}</span>
          {libraryLabel && <span>{libraryLabel}</span>}
        </span>
      }
      footer={
        <>
          {onSearchInMedia && (
            <Button variant="ghost" onClick={() => onSearchInMedia(moment)}>
              <IconSearch size={16} /> Search in this video
            </Button>
          )}
          <Button variant="secondary" onClick={() => onSimilar(moment)}>
            <IconSimilar size={16} /> {MSG_SEARCH_UI.similarMoments}
          </Button>
          <Button onClick={onClose}>Close</Button>
        </>
      }
    >
      <div className="moment-dialog">
        <div className="moment-dialog__main">
          <MomentVideo moment={moment} media={media} mode={mode} />
          <SegmentedControl<MomentMode>
            label="Play"
            value={mode}
            onValueChange={setMode}
            options={[
              { value: 'moment', label: 'Moment' },
              { value: 'full', label: 'Full video' },
            ]}
          />
        </div>
        <aside className="moment-dialog__side">
          <SegmentedControl<DialogTab>
            label="Details"
            value={tab}
            onValueChange={setTab}
            options={[
              { value: 'transcript', label: 'Transcript' },
              { value: 'visual', label: 'Visual summary' },
            ]}
          />
          <MomentLines key={tab} moment={moment} kind={tab} />
        </aside>
      </div>
    </Dialog>
  );
}

function MomentLines({ moment, kind }: { moment: Moment; kind: DialogTab }) {
  const data = useMomentData(moment, kind);
  const first = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (data.status === 'ready') first.current?.scrollIntoView({ block: 'nearest' });
  }, [data.status]);
  if (data.status === 'loading') return <p className="moment-dialog__note">{MSG_SEARCH_UI.loading}</p>;
  const lines = data.status === 'ready' ? data.lines : [];
  if (!lines.length)
    return <p className="moment-dialog__note">{kind === 'transcript' ? MSG_SEARCH_UI.noTranscript : MSG_SEARCH_UI.noDescription}</p>;
  const firstIn = lines.findIndex((l) => overlaps(l, moment));
  return (
    <ol className="moment-lines" aria-label={kind === 'transcript' ? 'Transcript' : 'Visual summary'}>
      {lines.map((l, i) => (
        <li
          key={`${l.start}-${i}`}
          ref={i === firstIn ? first : undefined}
          className={`moment-lines__item${overlaps(l, moment) ? ' moment-lines__item--in' : ''}`}
        >
          <span className="moment-lines__time">{formatTimecode(l.start)}</span>
          <span className="moment-lines__text">{l.text}</span>
        </li>
      ))}
    </ol>
  );
}

/** The dialog's player: the HLS preview through hls.js, looping the moment or playing the whole media. */
function MomentVideo({ moment, media, mode }: { moment: Moment; media: Media | undefined; mode: MomentMode }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const player = useRef<PlayerHandle | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const { byLibrary } = useSnapshot(previewTokens);
  const token = byLibrary[moment.libraryId]?.token ?? null;
  const playable = canPreview(moment, media);
  const modeRef = useRef(mode);

  useEffect(() => {
    if (playable) void ensurePreviewToken(moment.libraryId);
  }, [playable, moment.libraryId]);

  useEffect(() => {
    const video = videoRef.current;
    if (!playable || !token || !video) return;
    setFailed(false);
    const handle = attachPlayer(video, {
      url: previewPlaylistUrl(moment.libraryId, moment.mediaId, token),
      mode: 'hls',
      start: moment.startTime,
      end: moment.endTime,
      loop: modeRef.current === 'moment',
      autoplay: true,
      onFailed: () => setFailed(true),
    });
    player.current = handle;
    return () => {
      handle.destroy();
      player.current = null;
    };
  }, [playable, token, attempt, moment.libraryId, moment.mediaId, moment.startTime, moment.endTime]);

  // Switching mode keeps the stream: the moment loops again from its start, the full video plays on.
  useEffect(() => {
    modeRef.current = mode;
    player.current?.setLoop(mode === 'moment');
    const video = videoRef.current;
    if (mode === 'moment' && video && (video.currentTime < moment.startTime || video.currentTime >= moment.endTime))
      video.currentTime = moment.startTime;
  }, [mode, moment.startTime, moment.endTime]);

  const poster = token ? thumbnailUrl(moment.libraryId, moment.mediaId, token, moment.startTime) : undefined;
  if (!playable)
    return (
      <div className="moment-dialog__video moment-dialog__video--still">
        {poster ? <img src={poster} alt="" /> : <IconFilm size={32} />}
      </div>
    );
  return (
    <div className="moment-dialog__video">
      <video ref={videoRef} poster={poster} controls playsInline aria-label={`Video ${mediaNameOf(media)}`} />
      {failed && (
        <button type="button" className="moment-dialog__retry" onClick={() => setAttempt((n) => n + 1)}>
          <IconAlert size={18} /> {MSG_SEARCH_UI.retryLoading}
        </button>
      )}
    </div>
  );
}
