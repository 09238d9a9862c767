import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { DOWNLOAD_FORMAT_LABEL, MSG_DOWNLOAD, type Library, type Media, type Moment } from '../../../contract';
import { downloadMoments, downloadOptions, setRemoveWatermark } from '../../state/downloads';
import { effectiveMoment, momentEdits } from '../../state/momentEdits';
import { Button } from '../../ui/Button';
import { IconDownload } from '../../ui/icons';
import { Menu, MenuCheckboxItem, MenuHeader, MenuItem, MenuSeparator } from '../../ui/Menu';
import { momentToTake } from '../moment/DownloadMenu';

const FORMATS = ['mp4', 'gif', 'srt'] as const;

/** The selection bar's download: every selected moment (trimmed ranges), one after another. */
export function SelectionDownload({
  moments,
  medias,
  libraries,
}: {
  moments: Moment[];
  medias: Record<string, Media>;
  libraries: readonly Library[];
}) {
  const { byMoment } = useSnapshot(momentEdits);
  const { removeWatermark } = useSnapshot(downloadOptions);
  const [busy, setBusy] = useState(false);
  const start = async (format: (typeof FORMATS)[number]) => {
    setBusy(true);
    const list = moments.map((m) => {
      const shown = effectiveMoment(m, byMoment);
      const library = libraries.find((l) => l._id === m.libraryId)?.name ?? 'library';
      return momentToTake(m, shown, medias[m.mediaId], library);
    });
    await downloadMoments(list, format);
    setBusy(false);
  };
  return (
    <Menu
      label="Download selected moments"
      trigger={
        <Button size="sm" variant="secondary" busy={busy} disabled={!moments.length}>
          <IconDownload size={16} /> Download
        </Button>
      }
    >
      <MenuHeader>Download {moments.length} moment(s)</MenuHeader>
      {FORMATS.map((f) => (
        <MenuItem key={f} onSelect={() => void start(f)}>
          {DOWNLOAD_FORMAT_LABEL[f]}
        </MenuItem>
      ))}
      <MenuSeparator />
      <MenuCheckboxItem checked={removeWatermark} onCheckedChange={setRemoveWatermark}>
        {MSG_DOWNLOAD.removeWatermark}
      </MenuCheckboxItem>
    </Menu>
  );
}
