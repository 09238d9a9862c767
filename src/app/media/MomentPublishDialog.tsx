import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { exportFileNames, MSG_DOWNLOAD, MSG_PUBLISH, type ClipFraming, type Media } from '../../contract';
import { cropSize } from '../../engine/kernels/cropWindow';
import { useCredits } from '../hooks/useCredits';
import { momentFraming, setMomentAspect, setMomentCrop } from '../state/momentFraming';
import { compilationCost, downloadCompilation, type CompilationRange } from '../state/compilation';
import type { MomentToTake } from '../state/downloads';
import { Button } from '../ui/Button';
import { Checkbox } from '../ui/Checkbox';
import { Dialog } from '../ui/Dialog';
import { IconChevronDown, IconDownload } from '../ui/icons';
import { CropWindow } from './CropWindow';
import { pictureSizeOf } from './mediaInfo';
import { HandOffMenu, PUBLISH_DEFAULT, PublishOptions, publishChoice, type PublishState } from './PublishOptions';

/**
 * Issue 39: one moment's publish-ready download, chosen from its download menu: the MP4's shape (the
 * crop window over the moment, to drag when it should not follow the subject) and captions, with the
 * watermark switch and its cost (captions are free: the price is the moment's MP4 price), and its
 * subtitles, an editor's project and the original.
 */
export function MomentPublishDialog({
  momentId,
  take,
  media,
  onClose,
}: {
  momentId: string;
  take: MomentToTake;
  media: Media | undefined;
  onClose: () => void;
}) {
  // The shape and window are the moment's (state/momentFraming): chosen here or over its player.
  const chosen = useSnapshot(momentFraming).byMoment[momentId];
  const [captions, setCaptions] = useState<Omit<PublishState, 'aspect'>>(PUBLISH_DEFAULT);
  const publish: PublishState = { ...captions, aspect: chosen?.aspect ?? PUBLISH_DEFAULT.aspect };
  const setPublish = ({ aspect, ...rest }: PublishState) => {
    setCaptions(rest);
    if (aspect !== publish.aspect) setMomentAspect(momentId, aspect);
  };
  const framing = chosen?.framing;
  const setFraming = (f: ClipFraming | undefined) => setMomentCrop(momentId, publish.aspect, f);
  // Paying is a choice made each time: off whenever the dialog opens.
  const [removeWatermark, setRemoveWatermark] = useState(false);
  const [busy, setBusy] = useState(false);
  const { info } = useCredits();
  const sourceSize = pictureSizeOf(media);
  const size = sourceSize ? cropSize(publish.aspect, sourceSize.width, sourceSize.height) : null;
  const range: CompilationRange = {
    libraryId: take.libraryId,
    mediaId: take.mediaId,
    start: take.start,
    end: take.end,
    mediaDuration: take.mediaDuration,
    ...(size && framing ? { framing } : {}),
  };
  // The name the editor's project refers to the original by (contract exportFileNames).
  const originalName = exportFileNames([{ mediaId: take.mediaId, filename: media?.metadata.filename || take.mediaName }]).get(
    take.mediaId,
  )!;
  const price = compilationCost([range], true).cost;
  const cost = compilationCost([range], removeWatermark).cost;
  const balance = info?.creditsLeft ?? 0;

  const download = async () => {
    setBusy(true);
    const saved = await downloadCompilation([range], take.libraryName, removeWatermark, publishChoice(publish), take.mediaName);
    setBusy(false);
    if (saved) onClose();
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      width={size ? 720 : 560}
      title={MSG_PUBLISH.publishTitle}
      description={MSG_PUBLISH.publishDescription}
      footer={
        <div className="publish-dialog__footer">
          <HandOffMenu
            aspect={publish.aspect}
            clips={[range]}
            medias={[{ libraryId: take.libraryId, mediaId: take.mediaId, name: originalName }]}
            baseName={`${take.libraryName}_${take.mediaName.replace(/\.[a-z0-9]{2,4}$/i, '')}`}
            trigger={(handing) => (
              <Button variant="secondary" busy={handing}>
                {MSG_PUBLISH.moreDownloads} <IconChevronDown size={16} />
              </Button>
            )}
          />
          <Button onClick={() => void download()} busy={busy}>
            <IconDownload size={16} /> {MSG_PUBLISH.downloadMp4}
            {removeWatermark && <span className="merge-footer__price">{MSG_DOWNLOAD.credits(cost)}</span>}
          </Button>
        </div>
      }
    >
      <div className="publish-dialog" data-testid="publish-dialog">
        <PublishOptions value={publish} onChange={setPublish} />
        {size && sourceSize && (
          <CropWindow
            libraryId={take.libraryId}
            mediaId={take.mediaId}
            range={{ startTime: take.start, endTime: take.end }}
            aspect={publish.aspect}
            size={size}
            sourceSize={sourceSize}
            framing={framing}
            onFramingChange={setFraming}
          />
        )}
        <Checkbox
          checked={removeWatermark}
          onCheckedChange={setRemoveWatermark}
          label={
            <span>
              {MSG_DOWNLOAD.removeWatermark}
              <span className="merge-footer__cost muted">{MSG_DOWNLOAD.removeWatermarkCost(price, balance)}</span>
            </span>
          }
        />
      </div>
    </Dialog>
  );
}
