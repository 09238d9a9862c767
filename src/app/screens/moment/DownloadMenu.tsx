import { useState, type ReactElement } from 'react';
import { useSnapshot } from 'valtio';
import { DOWNLOAD_FORMAT_LABEL, MSG_DOWNLOAD, type Media, type Moment, type MomentDownloadFormat } from '../../../contract';
import { useCredits } from '../../hooks/useCredits';
import { downloadCost, downloadMoment, downloadOptions, setRemoveWatermark, type MomentToTake } from '../../state/downloads';
import { libraries } from '../../state/libraries';
import { Menu, MenuCheckboxItem, MenuHeader, MenuItem, MenuSeparator } from '../../ui/Menu';
import { mediaNameOf } from '../search/mediaInfo';

const FORMATS: MomentDownloadFormat[] = ['mp4', 'gif', 'both', 'srt'];

/** The library's name for download file names (`{library}_{media}.mp4`). */
export function useLibraryName(libraryId: string): string {
  const { items } = useSnapshot(libraries);
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
  };
}

/**
 * Download of one moment's effective (trimmed) range: MP4, GIF, MP4 and GIF, or its transcript as
 * SRT, and the 'Remove watermark' switch with what it costs against the balance.
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
  const { removeWatermark } = useSnapshot(downloadOptions);
  const { info } = useCredits();
  const libraryName = useLibraryName(moment.libraryId);
  const [busy, setBusy] = useState(false);
  const seconds = range.endTime - range.startTime;
  const { cost } = downloadCost(seconds, 'mp4', true);
  const balance = info?.creditsLeft ?? 0;
  const isVideo = media?.kind !== 'image';

  const start = async (format: MomentDownloadFormat) => {
    setBusy(true);
    await downloadMoment(momentToTake(moment, range, media, libraryName), format);
    setBusy(false);
  };

  return (
    <Menu trigger={trigger(busy)} label="Download moment">
      <MenuHeader>Download moment</MenuHeader>
      {FORMATS.map((f) => (
        <MenuItem
          key={f}
          onSelect={() => void start(f)}
          disabled={busy || (!isVideo && f !== 'srt')}
          hint={!isVideo && f !== 'srt' ? 'Only videos can be downloaded as MP4 or GIF.' : undefined}
        >
          {DOWNLOAD_FORMAT_LABEL[f]}
        </MenuItem>
      ))}
      <MenuSeparator />
      <MenuCheckboxItem checked={removeWatermark} onCheckedChange={setRemoveWatermark}>
        <span className="download-menu__watermark">
          {MSG_DOWNLOAD.removeWatermark}
          <span className="download-menu__cost">
            {cost.toLocaleString()} credits per file · {Math.floor(balance).toLocaleString()} left
          </span>
        </span>
      </MenuCheckboxItem>
    </Menu>
  );
}
