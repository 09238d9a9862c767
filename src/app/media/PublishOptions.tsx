import { useState, type ReactElement } from 'react';
import {
  CAPTION_STYLE_LABELS,
  CAPTION_STYLES,
  EXPORT_FORMATS,
  MSG_PUBLISH,
  RENDER_ASPECT_DEFAULT,
  RENDER_ASPECT_LABELS,
  RENDER_ASPECTS,
  SUBTITLE_FORMATS,
  type CaptionStyle,
  type ExportFormat,
  type RenderAspect,
  type SubtitleFormat,
} from '../../contract';
import type { CompilationRange, PublishChoice } from '../state/compilation';
import { downloadExport, downloadOriginal, downloadSubtitles } from '../state/publishing';
import { Checkbox } from '../ui/Checkbox';
import { Menu, MenuHeader, MenuItem, MenuSeparator } from '../ui/Menu';
import { Select } from '../ui/Select';

/** The publish choices as the dialogs hold them: the shape, a burned-in style or none, the subtitle track. */
export interface PublishState {
  aspect: RenderAspect;
  burn: CaptionStyle | 'none';
  soft: boolean;
}

export const PUBLISH_DEFAULT: PublishState = { aspect: RENDER_ASPECT_DEFAULT, burn: 'none', soft: false };

/** The choice as the compilation call takes it. */
export const publishChoice = (s: PublishState): PublishChoice => ({
  aspect: s.aspect,
  captions: { ...(s.burn !== 'none' ? { burn: s.burn } : {}), ...(s.soft ? { soft: true } : {}) },
});

export const ASPECT_OPTIONS = RENDER_ASPECTS.map((a) => ({ value: a, label: RENDER_ASPECT_LABELS[a] }));
const CAPTION_OPTIONS: { value: CaptionStyle | 'none'; label: string }[] = [
  { value: 'none', label: MSG_PUBLISH.captionsNone },
  ...CAPTION_STYLES.map((c) => ({ value: c, label: CAPTION_STYLE_LABELS[c] })),
];

/**
 * The MP4's shape (an aspect the render crops to, following the subject) and its captions (a style
 * burned in, and/or a subtitle track). Captions cost nothing: the price beside the download is unchanged.
 */
export function PublishOptions({ value, onChange }: { value: PublishState; onChange: (next: PublishState) => void }) {
  return (
    <div className="publish-options" data-testid="publish-options">
      <Select<RenderAspect>
        label={MSG_PUBLISH.aspect}
        value={value.aspect}
        options={ASPECT_OPTIONS}
        onValueChange={(aspect) => onChange({ ...value, aspect })}
      />
      <Select<CaptionStyle | 'none'>
        label={MSG_PUBLISH.captions}
        value={value.burn}
        options={CAPTION_OPTIONS}
        onValueChange={(burn) => onChange({ ...value, burn })}
      />
      <span className="publish-options__track" title={MSG_PUBLISH.subtitleTrackHint}>
        <Checkbox checked={value.soft} onCheckedChange={(soft) => onChange({ ...value, soft })} label={MSG_PUBLISH.subtitleTrack} />
      </span>
    </div>
  );
}

/** A media a compilation references: its place and the name its original is saved under. */
export interface ReferencedMedia {
  libraryId: string;
  mediaId: string;
  name: string;
}

/**
 * What a compilation hands over besides its MP4: its subtitles (SRT or WebVTT), a project for a
 * video editor in each format, and the originals that project references. `trigger` shows busy
 * while one is being made.
 */
export function HandOffMenu({
  clips,
  medias,
  baseName,
  trigger,
  disabled,
  aspect,
}: {
  clips: readonly CompilationRange[];
  /** The shape chosen for the MP4: an editor project (MLT) is cropped the same way. */
  aspect: RenderAspect;
  medias: readonly ReferencedMedia[];
  /** The files' name without extension (`{library}_compilation`). */
  baseName: string;
  trigger: (busy: boolean) => ReactElement;
  disabled?: string | null;
}) {
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  const off = busy || Boolean(disabled);
  return (
    <Menu trigger={trigger(busy)} label={MSG_PUBLISH.moreDownloads}>
      <MenuHeader>{MSG_PUBLISH.subtitles}</MenuHeader>
      {SUBTITLE_FORMATS.map((f: SubtitleFormat) => (
        <MenuItem
          key={f}
          onSelect={() => void run(() => downloadSubtitles(clips, f, baseName))}
          disabled={off}
          hint={disabled ?? undefined}
        >
          {MSG_PUBLISH.subtitleFormatLabels[f]}
        </MenuItem>
      ))}
      <MenuSeparator />
      <MenuHeader>{MSG_PUBLISH.exportForEditor}</MenuHeader>
      {EXPORT_FORMATS.map((f: ExportFormat) => (
        <MenuItem
          key={f}
          onSelect={() => void run(() => downloadExport(clips, f, baseName, aspect))}
          disabled={off}
          hint={disabled ?? undefined}
        >
          {MSG_PUBLISH.exportLabel(f)}
          {aspect !== 'source' && (
            <span className="menu__note">
              {f === 'mlt' ? MSG_PUBLISH.exportCropped(RENDER_ASPECT_LABELS[aspect]) : MSG_PUBLISH.exportUncropped}
            </span>
          )}
        </MenuItem>
      ))}
      <MenuSeparator />
      <MenuHeader>{MSG_PUBLISH.originals}</MenuHeader>
      {medias.map((m) => (
        <MenuItem key={m.mediaId} onSelect={() => void run(() => downloadOriginal(m.libraryId, m.mediaId, m.name))} disabled={busy}>
          {MSG_PUBLISH.original(m.name)}
        </MenuItem>
      ))}
    </Menu>
  );
}
