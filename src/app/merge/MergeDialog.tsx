import { useEffect, useMemo, useRef, useState } from 'react';
import {
  clipsBlockedReason,
  exportFileNames,
  MSG_DOWNLOAD,
  MSG_MERGE,
  MSG_PUBLISH,
  RENDER_DEFAULT_HEIGHT,
  type Library,
  type Media,
  type Moment,
} from '../../contract';
import { clipCrop, cropSize, outputSize } from '../../engine/kernels/cropWindow';
import { SequenceEngine, type SequenceEngineState } from '../../engine/sequence/SequenceEngine';
import type { SequenceClip } from '../../engine/sequence/sequenceModel';
import { buildCompilationPreview, stopCompileWorkers } from '../../workers/compile/compileClient';
import type { CompileClip } from '../../workers/compile/compile.protocol';
import { useCredits } from '../hooks/useCredits';
import { useMediaQuery } from '../hooks/useMediaQuery';
import { compilationCost, downloadCompilation, type CompilationRange } from '../state/compilation';
import { usePreviewTokens } from '../hooks/usePreviewToken';
import { ensurePreviewToken, previewTokenOf, thumbnailUrl } from '../state/previewTokens';
import { showToast } from '../state/toasts';
import { Button, IconButton } from '../ui/Button';
import { CheckboxControl } from '../ui/Checkbox';
import { Dialog } from '../ui/Dialog';
import { IconChevronDown, IconDownload, IconFilm, IconFullscreen, IconPause, IconPlay } from '../ui/icons';
import { SegmentedControl } from '../ui/SegmentedControl';
import { Tooltip } from '../ui/Tooltip';
import { useSessionSound, VolumeControl } from '../media/VolumeControl';
import { mediaNameOf, pictureSizeOf } from '../media/mediaInfo';
import { framingPath } from '../media/framingPath';
import { HandOffMenu, PUBLISH_DEFAULT, PublishOptions, publishChoice, type PublishState } from '../media/PublishOptions';
import { attachPlayer, previewPlaylistUrl } from '../media/momentPlayer';
import { MomentList } from './MomentList';
import { SequencePlayback, type SwitchRecord } from '../../engine/sequence/SequencePlayback';
import { formatClock } from '../ui/format';
import { useSequenceValue } from '../timeline/useEngineValue';
import './merge.css';

/** A selected moment (with its effective range) as a clip of the editor. */
export function clipOfMoment(m: Moment, media: Media | undefined): SequenceClip {
  const v = media?.metadata.video;
  const duration = v?.duration ?? m.endTime;
  return {
    id: m.id,
    extendedMediaId: { libraryId: m.libraryId, mediaId: m.mediaId },
    beginEndTimestamp: { startTime: m.startTime, endTime: m.endTime },
    duration: m.endTime - m.startTime,
    modifications: {},
    mediaDuration: duration,
    frameRate: v?.frameCount && duration ? v.frameCount / duration : 0,
    label: mediaNameOf(media),
  };
}

// What the dialog reads of the editor, each re-rendering it only when it changes: playback moves
// `currentTime` every frame, which only the clock (MergeClock) and the engine's canvas show.
const selectClips = (s: SequenceEngineState) => s.clips;
const selectDuration = (s: SequenceEngineState) => s.duration;
const selectPlaying = (s: SequenceEngineState) => s.playing;
const selectCanUndo = (s: SequenceEngineState) => s.canUndo;
const selectCanRedo = (s: SequenceEngineState) => s.canRedo;
const selectCurrentTime = (s: SequenceEngineState) => s.currentTime;

/** The playhead's time over the sequence's length: the one part of the dialog a frame of playback re-renders. */
function MergeClock({ engine }: { engine: SequenceEngine | null }) {
  const time = useSequenceValue(engine, selectCurrentTime);
  const duration = useSequenceValue(engine, selectDuration);
  return (
    <span className="merge__time" data-testid="merge-time">
      {formatClock(time)} / {formatClock(duration)}
    </span>
  );
}

declare global {
  interface Window {
    /** Clip switches seen by the merge dialog's frame clock (read by the e2e test and the gap benchmark). */
    __mergeSwitches?: SwitchRecord[];
    /** The dialog's player (its `trace` explains a switch that did not happen). */
    __mergePlayback?: SequencePlayback;
  }
}

type View = 'sequence' | 'preview';

/**
 * The merge dialog (spec section 2): the sequence's preview player, the clip editor (timeline and the
 * reorderable moment list) and a footer with the format (MP4 only), the watermark option and its
 * cost, a local preview built in the browser (ffmpeg.wasm) and the server-rendered download.
 */
export default function MergeDialog({
  moments,
  medias,
  libraries,
  onClose,
}: {
  moments: Moment[];
  medias: Record<string, Media>;
  libraries: readonly Library[];
  onClose: () => void;
}) {
  // The clips as the dialog opened, once: the page behind passes a new `medias` object whenever it
  // renders (its search changed, its results were refetched), and a new `initial` restarted the
  // editor, dropping every edit and the undo history.
  const wide = useMediaQuery('(min-width: 601px)');
  const [initial] = useState(() => moments.map((m) => clipOfMoment(m, medias[m.mediaId])));
  const [engine, setEngine] = useState<SequenceEngine | null>(null);
  // State, not refs: the dialog's content mounts in its portal after this component first renders.
  const [timelineEl, setTimelineEl] = useState<HTMLDivElement | null>(null);
  const [rootEl, setRootEl] = useState<HTMLDivElement | null>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const [videoA, setVideoA] = useState<HTMLVideoElement | null>(null);
  const [videoB, setVideoB] = useState<HTMLVideoElement | null>(null);
  const playback = useRef<SequencePlayback | null>(null);
  const clips = useSequenceValue(engine, selectClips);
  const duration = useSequenceValue(engine, selectDuration);
  const playing = useSequenceValue(engine, selectPlaying);
  const canUndo = useSequenceValue(engine, selectCanUndo);
  const canRedo = useSequenceValue(engine, selectCanRedo);
  const libraryIds = useMemo(() => [...new Set(initial.map((c) => c.extendedMediaId.libraryId))], [initial]);
  // Each library's token, fetched when missing or about to expire.
  const tokens = usePreviewTokens(libraryIds);
  const tokensReady = libraryIds.every((id) => tokens[id]);
  const [view, setView] = useState<View>('sequence');
  // The local preview, and what it was built from (previewKey): an edit since makes it an earlier one.
  const [preview, setPreview] = useState<{ url: string; ms: number; key: string } | null>(null);
  const [building, setBuilding] = useState(false);
  const [downloading, setDownloading] = useState(false);
  // Paying is a choice made each time: off whenever the editor opens.
  const [removeWatermark, setRemoveWatermark] = useState(false);
  // Issue 39: the MP4's shape and captions (each clip's crop window where the user fixed it is the clip's: SequenceClip.framing).
  const [publish, setPublish] = useState<PublishState>(PUBLISH_DEFAULT);
  const { info } = useCredits();
  useSessionSound(videoA);
  useSessionSound(videoB);

  // The editor: created once with the selection; its callbacks reach the player through the ref.
  useEffect(() => {
    const container = timelineEl;
    // Keys from anywhere in the dialog (its footer and header too) are the editor's: Ctrl/Cmd+Z with
    // focus on Download undid nothing here and went to the browser's own undo instead.
    const keyTarget = rootEl?.closest('[role="dialog"]') ?? rootEl;
    if (!container || !keyTarget) return;
    let created: SequenceEngine | null = null;
    let cancelled = false;
    void SequenceEngine.create({
      container,
      clips: initial,
      keyTarget,
      thumbnail: (clip, signal) => loadPicture(clip, signal),
      onSeek: (t) => {
        const p = playback.current;
        const s = created?.getState();
        if (!p || !s) return;
        p.setClips(s.clips, t);
      },
      onShuttle: (rate) => (rate === 0 ? playback.current?.pause() : playback.current?.play(rate)),
      onPreload: (next) => playback.current?.preload(next),
    }).then((e) => {
      if (cancelled) return e.destroy();
      created = e;
      setEngine(e);
    });
    return () => {
      cancelled = true;
      created?.destroy();
      setEngine(null);
    };
  }, [initial, timelineEl, rootEl]);

  // The two players, once the editor and the preview tokens are there.
  useEffect(() => {
    if (!engine || !videoA || !videoB || !tokensReady) return;
    const p = new SequencePlayback({
      videos: [videoA, videoB],
      urlOf: (clip) => {
        const token = previewTokenOf(clip.extendedMediaId.libraryId);
        return token ? previewPlaylistUrl(clip.extendedMediaId.libraryId, clip.extendedMediaId.mediaId, token) : null;
      },
      attach: (video, url, start) =>
        attachPlayer(video, { url, mode: 'hls', start, end: Number.POSITIVE_INFINITY, loop: false, autoplay: false }),
      onTime: (t) => engine.setPlaybackTime(t),
      onPlaying: (playing) => engine.setPlaying(playing),
      onSwitch: (r) => (window.__mergeSwitches ??= []).push(r),
    });
    playback.current = p;
    window.__mergePlayback = p;
    const s = engine.getState();
    p.setClips(s.clips, s.currentTime);
    return () => {
      p.destroy();
      playback.current = null;
      if (window.__mergePlayback === p) window.__mergePlayback = undefined;
    };
  }, [engine, videoA, videoB, tokensReady]);

  // Switching to the local preview pauses the sequence.
  useEffect(() => {
    if (view === 'preview') playback.current?.pause();
  }, [view]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview.url)), [preview]);
  // The preview workers hold a wasm heap each: they go with the dialog.
  useEffect(() => () => stopCompileWorkers(), []);

  const blocked = clipsBlockedReason(clips);
  const poster = clips[0] && tokensReady ? (pictureUrl(clips[0]) ?? undefined) : undefined;
  const sourceSizeOf = (clip: SequenceClip) => pictureSizeOf(medias[clip.extendedMediaId.mediaId]);
  const cropping = publish.aspect !== 'source';
  const ranges: CompilationRange[] = clips.map((c) => ({
    libraryId: c.extendedMediaId.libraryId,
    mediaId: c.extendedMediaId.mediaId,
    start: c.beginEndTimestamp.startTime,
    end: c.beginEndTimestamp.endTime,
    mediaDuration: c.mediaDuration,
    ...(cropping && c.framing ? { framing: c.framing } : {}),
  }));
  // The originals under the names the editor's project refers to them by (contract exportFileNames).
  const originalNames = exportFileNames(
    clips.map((c) => ({
      mediaId: c.extendedMediaId.mediaId,
      filename: medias[c.extendedMediaId.mediaId]?.metadata.filename || mediaNameOf(medias[c.extendedMediaId.mediaId]),
    })),
  );
  const referenced = [...new Map(clips.map((c) => [c.extendedMediaId.mediaId, c])).values()].map((c) => ({
    libraryId: c.extendedMediaId.libraryId,
    mediaId: c.extendedMediaId.mediaId,
    name: originalNames.get(c.extendedMediaId.mediaId)!,
  }));
  const { cost } = compilationCost(ranges, true);
  const balance = info?.creditsLeft ?? 0;
  const firstLibrary = libraries.find((l) => l._id === clips[0]?.extendedMediaId.libraryId)?.name ?? 'library';

  const togglePlay = () => {
    const p = playback.current;
    if (!p) return;
    if (p.isPlaying) p.pause();
    else {
      // Read when pressed: the dialog does not re-render as the playhead moves.
      const s = engine?.getState();
      if (s && s.currentTime >= s.duration - 0.05) engine?.seek(0);
      p.play(1);
    }
  };

  const currentPreviewKey = previewKey(clips, publish.aspect);
  const stale = preview !== null && preview.key !== currentPreviewKey;

  const buildPreview = async () => {
    if (!tokensReady || blocked) return;
    setBuilding(true);
    const t0 = performance.now();
    const key = currentPreviewKey;
    try {
      const aspect = publish.aspect;
      const compileClips: CompileClip[] = await Promise.all(
        clips.map(async (c) => {
          const { libraryId, mediaId } = c.extendedMediaId;
          const { startTime: start, endTime: end } = c.beginEndTimestamp;
          const clip: CompileClip = {
            playlistUrl: new URL(previewPlaylistUrl(libraryId, mediaId, previewTokenOf(libraryId)!), location.href).href,
            start,
            end,
            frameRate: c.frameRate,
          };
          if (aspect === 'source') return clip;
          // The render's shape: each clip cropped along its path (or where the user fixed it), all scaled alike.
          const source = sourceSizeOf(c);
          const size = source ? cropSize(aspect, source.width, source.height) : null;
          const path = size && !c.framing ? await framingPath(libraryId, mediaId, aspect, start, end) : null;
          return {
            ...clip,
            crop: clipCrop(size ?? { width: 1, height: 1 }, c.framing, path?.points),
            output: outputSize(aspect, RENDER_DEFAULT_HEIGHT),
          };
        }),
      );
      const { blob } = await buildCompilationPreview(compileClips);
      setPreview({ url: URL.createObjectURL(blob), ms: performance.now() - t0, key });
      setView('preview');
    } catch {
      showToast(MSG_MERGE.previewFailed, { title: MSG_DOWNLOAD.errorTitle, tone: 'error', durationMs: MSG_DOWNLOAD.toastMs });
    } finally {
      setBuilding(false);
    }
  };

  const download = async () => {
    if (blocked) return;
    setDownloading(true);
    await downloadCompilation(ranges, firstLibrary, removeWatermark, publishChoice(publish));
    setDownloading(false);
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void stageRef.current?.requestFullscreen().catch(() => undefined);
  };

  const footer = (
    <div className="merge-footer">
      <SegmentedControl<'mp4' | 'gif'>
        label="Format"
        value="mp4"
        onValueChange={() => undefined}
        options={[
          { value: 'mp4', label: 'MP4' },
          {
            value: 'gif',
            label: (
              <Tooltip content={MSG_MERGE.gifCompilationsSoon} side="top">
                <span>GIF</span>
              </Tooltip>
            ),
            disabled: true,
          },
        ]}
      />
      <span className="merge-footer__gif muted">{MSG_MERGE.gifCompilationsSoon}</span>
      <PublishOptions value={publish} onChange={setPublish} />
      <label className="merge-footer__watermark">
        <CheckboxControl checked={removeWatermark} onCheckedChange={setRemoveWatermark} label={MSG_DOWNLOAD.removeWatermark} />
        <span>
          {MSG_DOWNLOAD.removeWatermark}
          <span className="merge-footer__cost muted">{MSG_DOWNLOAD.removeWatermarkCost(cost, balance)}</span>
        </span>
      </label>
      <span className="merge-footer__spacer" />
      <HandOffMenu
        aspect={publish.aspect}
        clips={ranges}
        medias={referenced}
        baseName={`${firstLibrary}_compilation`}
        disabled={blocked}
        trigger={(busy) => (
          <Button variant="secondary" busy={busy}>
            {MSG_PUBLISH.moreDownloads} <IconChevronDown size={16} />
          </Button>
        )}
      />
      <Button variant="secondary" onClick={() => void buildPreview()} busy={building} disabled={Boolean(blocked) || !tokensReady}>
        <IconFilm size={16} /> {building ? MSG_MERGE.previewBuilding : 'Build preview'}
      </Button>
      <Button onClick={() => void download()} busy={downloading} disabled={Boolean(blocked)}>
        <IconDownload size={16} /> Download MP4
        {removeWatermark && <span className="merge-footer__price">{MSG_DOWNLOAD.credits(cost)}</span>}
      </Button>
    </div>
  );

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={1160}
      title={MSG_MERGE.dialogTitle}
      footer={footer}
      // The editor keeps its download in view. Not on a phone, where the footer wraps to four rows:
      // kept there, it would hide the editor.
      stickyFooter={wide}
    >
      <div ref={setRootEl} className="merge" data-testid="merge-dialog">
        <div className="merge__top">
          <SegmentedControl<View>
            label="Show"
            value={view}
            onValueChange={setView}
            options={[
              { value: 'sequence', label: 'Sequence' },
              { value: 'preview', label: 'Local preview', disabled: !preview },
            ]}
          />
          <span className="merge__summary muted" aria-live="polite">
            {clips.length} clips · {formatClock(duration)}
            {preview && view === 'preview' ? ` · built in ${(preview.ms / 1000).toFixed(1)} s` : ''}
          </span>
        </div>
        <div className="merge__stage" ref={stageRef} hidden={view !== 'sequence'}>
          {/* The first clip's picture until the players have theirs. */}
          <video ref={setVideoA} className="merge__video" playsInline poster={poster} data-testid="merge-video" />
          <video ref={setVideoB} className="merge__video" playsInline data-testid="merge-video" />
          {!tokensReady && <p className="merge__note muted">Loading…</p>}
        </div>
        {view === 'preview' && preview && (
          <div className="merge__stage">
            <video className="merge__video merge__video--preview" src={preview.url} controls playsInline data-testid="local-preview" />
          </div>
        )}
        {view === 'preview' && stale && (
          <p className="merge__stale" role="status" data-testid="local-preview-stale">
            {MSG_MERGE.previewStale}{' '}
            <Button
              size="sm"
              variant="secondary"
              onClick={() => void buildPreview()}
              busy={building}
              disabled={Boolean(blocked) || !tokensReady}
            >
              {building ? MSG_MERGE.previewBuilding : MSG_MERGE.previewRebuild}
            </Button>
          </p>
        )}
        <div className="merge__controls" hidden={view !== 'sequence'}>
          <IconButton label={playing ? 'Pause' : 'Play'} onClick={togglePlay} disabled={!tokensReady}>
            {playing ? <IconPause size={18} /> : <IconPlay size={18} />}
          </IconButton>
          <MergeClock engine={engine} />
          <VolumeControl />
          <span className="merge__spacer" />
          {/* A group: when one disables itself (the last undo or redo), focus moves to the other (ui/modal). */}
          <span className="merge__history" role="group" aria-label="History">
            <Button size="sm" variant="ghost" onClick={() => engine?.undo()} disabled={!canUndo}>
              Undo
            </Button>
            <Button size="sm" variant="ghost" onClick={() => engine?.redo()} disabled={!canRedo}>
              Redo
            </Button>
          </span>
          <IconButton label="Full screen" onClick={toggleFullscreen}>
            <IconFullscreen size={18} />
          </IconButton>
        </div>
        <div ref={setTimelineEl} className="merge__timeline" aria-hidden="true" data-testid="sequence-timeline" />
        <MomentList
          engine={engine}
          pictureOf={pictureUrl}
          cropOf={(clip) => ({ aspect: publish.aspect, sourceSize: sourceSizeOf(clip), framing: clip.framing })}
        />
        {blocked && <p className="merge__blocked">{blocked}</p>}
      </div>
    </Dialog>
  );
}

/** What a local preview is built from: each clip's media, range and crop window, and the shape. */
function previewKey(clips: readonly SequenceClip[], aspect: string): string {
  return JSON.stringify([
    aspect,
    clips.map((c) => [c.extendedMediaId.mediaId, c.beginEndTimestamp.startTime, c.beginEndTimestamp.endTime, c.framing ?? null]),
  ]);
}

/** The picture of a clip's first frame (the server's thumbnail), or null without a preview token. */
function pictureUrl(clip: SequenceClip): string | null {
  const token = previewTokenOf(clip.extendedMediaId.libraryId);
  return token ? thumbnailUrl(clip.extendedMediaId.libraryId, clip.extendedMediaId.mediaId, token, clip.beginEndTimestamp.startTime) : null;
}

async function loadPicture(clip: SequenceClip, signal: AbortSignal): Promise<HTMLImageElement> {
  const token = await ensurePreviewToken(clip.extendedMediaId.libraryId);
  const url = token
    ? thumbnailUrl(clip.extendedMediaId.libraryId, clip.extendedMediaId.mediaId, token, clip.beginEndTimestamp.startTime)
    : null;
  if (!url || signal.aborted) throw new Error('No picture');
  const img = new Image();
  img.crossOrigin = 'anonymous';
  img.src = url;
  await img.decode();
  return img;
}
