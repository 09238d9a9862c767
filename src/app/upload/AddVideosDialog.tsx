import { useState } from 'react';
import { MSG_EXTERNAL, type Media } from '../../contract';
import { Dialog } from '../ui/Dialog';
import { SegmentedControl } from '../ui/SegmentedControl';
import { LinkTab } from './link/LinkTab';
import { UploadBox } from './UploadBox';

type Tab = 'files' | 'link';

/** 'Add videos': files from this computer, or a link to a video, playlist or channel (section 2). */
export function AddVideosDialog({
  target,
  knownUniqueIds,
  onFiles,
  onAdded,
  onClose,
}: {
  target: { libraryId: string; folderId: string };
  knownUniqueIds: readonly string[];
  onFiles: (files: File[]) => void;
  onAdded: (libraryId: string, media: Media[]) => void;
  onClose: () => void;
}) {
  const [tab, setTab] = useState<Tab>('files');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title="Add videos" width={640}>
      <SegmentedControl
        label="Add from"
        value={tab}
        onValueChange={setTab}
        options={[
          { value: 'files', label: MSG_EXTERNAL.tabFiles },
          { value: 'link', label: MSG_EXTERNAL.tabLink },
        ]}
      />
      <div className="add-videos__panel">
        {tab === 'files' ? (
          <UploadBox
            onFiles={(files) => {
              onFiles(files);
              onClose();
            }}
          />
        ) : (
          <LinkTab target={target} knownUniqueIds={knownUniqueIds} onAdded={onAdded} />
        )}
      </div>
    </Dialog>
  );
}
