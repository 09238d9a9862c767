import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { DOWNLOAD_FORMAT_LABEL, MSG_DOWNLOAD } from '../../../contract';
import type { SelectedMoments } from '../../media/mediaInfo';
import { useCredits } from '../../hooks/useCredits';
import { downloadMoments, momentsCost } from '../../state/downloads';
import { effectiveMoment, momentEdits } from '../../state/momentEdits';
import { Button } from '../../ui/Button';
import { IconDownload } from '../../ui/icons';
import { Menu, MenuHeader, MenuItem } from '../../ui/Menu';
import { momentToTake, RemoveWatermarkItem } from '../../media/DownloadMenu';

const FORMATS = ['mp4', 'gif', 'srt'] as const;

/**
 * The selection bar's download: every selected moment (trimmed ranges), one after another. As in
 * every download menu, 'Remove watermark' is off whenever the menu opens and each format says what
 * it costs while it is on.
 */
export function SelectionDownload({ moments, medias, libraries }: SelectedMoments) {
  const { byMoment } = useSnapshot(momentEdits);
  const [removeWatermark, setRemoveWatermark] = useState(false);
  const { info } = useCredits();
  const [busy, setBusy] = useState(false);
  const list = moments.map((m) => {
    const shown = effectiveMoment(m, byMoment);
    const library = libraries.find((l) => l._id === m.libraryId)?.name ?? 'library';
    return momentToTake(m, shown, medias[m.mediaId], library);
  });
  const start = async (format: (typeof FORMATS)[number]) => {
    setBusy(true);
    await downloadMoments(list, format, removeWatermark);
    setBusy(false);
  };
  const perFormat = momentsCost(list, 'mp4', true).cost;
  return (
    <Menu
      label="Download selected moments"
      onOpenChange={(open) => open && setRemoveWatermark(false)}
      trigger={
        <Button size="sm" variant="secondary" busy={busy} disabled={!moments.length}>
          <IconDownload size={16} /> Download
        </Button>
      }
    >
      <MenuHeader>Download {moments.length} moment(s)</MenuHeader>
      {FORMATS.map((f) => {
        const cost = f === 'srt' ? 0 : momentsCost(list, f, removeWatermark).cost;
        return (
          <MenuItem key={f} onSelect={() => void start(f)}>
            {DOWNLOAD_FORMAT_LABEL[f]}
            {cost > 0 && <span className="download-menu__price">{MSG_DOWNLOAD.credits(cost)}</span>}
          </MenuItem>
        );
      })}
      <RemoveWatermarkItem checked={removeWatermark} onCheckedChange={setRemoveWatermark}>
        {MSG_DOWNLOAD.removeWatermarkCost(perFormat, info?.creditsLeft ?? 0)}
      </RemoveWatermarkItem>
    </Menu>
  );
}
