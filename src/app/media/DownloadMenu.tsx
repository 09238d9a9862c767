import { useState, type ComponentProps, type ReactElement } from 'react';
import { DOWNLOAD_FORMAT_LABEL, MSG_DOWNLOAD, MSG_PUBLISH, type Media, type Moment, type MomentDownloadFormat } from '../../contract';
import { useCredits } from '../hooks/useCredits';
import { useLibraries } from '../hooks/useLibraries';
import { downloadMoment, momentCost, type MomentToTake } from '../state/downloads';
import { Menu, MenuCheckboxItem, MenuHeader, MenuItem, MenuSeparator } from '../ui/Menu';
import { mediaNameOf } from './mediaInfo';
import { MomentPublishDialog } from './MomentPublishDialog';

const FORMATS: MomentDownloadFormat[] = ['mp4', 'gif', 'both', 'srt'];

/** The library's name for download file names (`{library}_{media}.mp4`). */
export function useLibraryName(libraryId: string): string {
  const { items } = useLibraries({ refetchOnMount: false });
  return items?.find((l) => l._id === libraryId)?.name ?? 'library';
}

export function momentToTake(
  moment: Moment,
  range: { startTime: number; endTime: number },
  media: Media | undefined,
  libraryName: string,
): MomentToTake {
  return {
    libraryId: moment.libraryId,
    mediaId: moment.mediaId,
    start: range.startTime,
    end: range.endTime,
    libraryName,
    mediaName: mediaNameOf(media),
    mediaDuration: media?.metadata.video.duration || null,
  };
}

/** A download menu's last item: the 'Remove watermark' switch, after a separator, with what it costs (`children`). */
export function RemoveWatermarkItem({ checked, onCheckedChange, children }: ComponentProps<typeof MenuCheckboxItem>) {
  return (
    <>
      <MenuSeparator />
      <MenuCheckboxItem checked={checked} onCheckedChange={onCheckedChange}>
        <span className="download-menu__watermark">
          {MSG_DOWNLOAD.removeWatermark}
          <span className="download-menu__cost">{children}</span>
        </span>
      </MenuCheckboxItem>
    </>
  );
}

/**
 * Download of one moment's effective (trimmed) range: MP4, GIF, MP4 and GIF, or its transcript as
 * SRT, and the 'Remove watermark' switch with what it costs against the balance. Paying is a choice
 * made each time: the switch is off whenever the menu opens, and while it is on each format says
 * what it will cost.
 */
export function DownloadMenu({
  moment,
  range,
  media,
  trigger,
}: {
  moment: Moment;
  range: { startTime: number; endTime: number };
  media: Media | undefined;
  /** A focusable element (button) that opens the menu; it shows busy while a download runs. */
  trigger: (busy: boolean) => ReactElement;
}) {
  const [removeWatermark, setRemoveWatermark] = useState(false);
  const { info } = useCredits();
  const libraryName = useLibraryName(moment.libraryId);
  const [busy, setBusy] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const take = momentToTake(moment, range, media, libraryName);
  const perFile = momentCost(take, 'mp4', true).cost;
  const balance = info?.creditsLeft ?? 0;
  const isVideo = media?.kind !== 'image';

  const start = async (format: MomentDownloadFormat) => {
    setBusy(true);
    await downloadMoment(take, format, removeWatermark);
    setBusy(false);
  };

  return (
    <>
      <Menu trigger={trigger(busy)} label="Download moment" onOpenChange={(open) => open && setRemoveWatermark(false)}>
        <MenuHeader>Download moment</MenuHeader>
        {FORMATS.map((f) => {
          const cost = f === 'srt' ? 0 : momentCost(take, f, removeWatermark).cost;
          return (
            <MenuItem
              key={f}
              onSelect={() => void start(f)}
              disabled={busy || (!isVideo && f !== 'srt')}
              hint={!isVideo && f !== 'srt' ? 'Only videos can be downloaded as MP4 or GIF.' : undefined}
            >
              {DOWNLOAD_FORMAT_LABEL[f]}
              {cost > 0 && <span className="download-menu__price">{MSG_DOWNLOAD.credits(cost)}</span>}
            </MenuItem>
          );
        })}
        {/* Issue 39: the MP4's shape and captions, subtitles, an editor's project, the original. */}
        <MenuItem
          onSelect={() => setPublishing(true)}
          disabled={busy || !isVideo}
          hint={!isVideo ? 'Only videos can be downloaded as MP4 or GIF.' : undefined}
        >
          {MSG_PUBLISH.publishItem}
        </MenuItem>
        <RemoveWatermarkItem checked={removeWatermark} onCheckedChange={setRemoveWatermark}>
          {MSG_DOWNLOAD.removeWatermarkCost(perFile, balance, 'per file')}
        </RemoveWatermarkItem>
      </Menu>
      {publishing && <MomentPublishDialog momentId={moment.id} take={take} media={media} onClose={() => setPublishing(false)} />}
    </>
  );
}
