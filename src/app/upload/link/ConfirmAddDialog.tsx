import { useEffect, useState } from 'react';
import {
  canAfford,
  DEFAULT_IMPORT_COLLECTION_NAME,
  importCredits,
  LIBRARY_NAME_MAX,
  MSG_EXTERNAL,
  recogniseYouTube,
  type LinkInfo,
} from '../../../contract';
import { useCredits } from '../../hooks/useCredits';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/TextField';
import { ReasonTooltip } from '../../ui/Tooltip';
import { generatedLibraryName, nameGenerationDelay } from './linkImport';
import { formatDuration } from '../../ui/format';

export interface ConfirmAddChoice {
  /** Null: into the current library; else the name of a new library to create first. */
  newLibraryName: string | null;
}

/**
 * The confirm-add modal (sections 4, 5 and 8): what will be added, its approximate credits, the
 * credits left and after; optionally into a new library, whose name is generated for 1 to 3 s
 * (input disabled meanwhile) and defaults to 'Unnamed Media Collection' when left empty.
 */
export function ConfirmAddDialog({
  info,
  videos,
  adding,
  forceNewLibrary = false,
  onClose,
  onConfirm,
}: {
  info: LinkInfo;
  videos: ReadonlyArray<{ url: string; title: string; duration: number | null }>;
  adding: boolean;
  /** No library to add into (first-time users): a new one is always made. */
  forceNewLibrary?: boolean;
  onClose: () => void;
  onConfirm: (choice: ConfirmAddChoice) => void;
}) {
  const { info: billingInfo } = useCredits();
  const [newLibrary, setNewLibrary] = useState(forceNewLibrary);
  const [name, setName] = useState('');
  const [generating, setGenerating] = useState(false);

  useEffect(() => {
    if (!newLibrary) return;
    setGenerating(true);
    const timer = setTimeout(() => {
      setName((n) => n || generatedLibraryName(info));
      setGenerating(false);
    }, nameGenerationDelay());
    return () => clearTimeout(timer);
  }, [newLibrary, info]);

  const durations = videos.map((v) => v.duration);
  const balance = billingInfo?.creditsLeft ?? null;
  // What indexing will charge for these videos (the charge's own rule, contract ingestCost); unknown
  // while a length is unknown, and then said so rather than guessed.
  const figures = balance === null ? null : importCredits(durations, balance);
  const short = figures !== null && figures.approx !== null && !canAfford(figures.left, figures.approx);
  const youtube = videos.some((v) => recogniseYouTube(v.url)) || Boolean(recogniseYouTube(info.videos[0]?.url ?? ''));
  const knownTotal = durations.reduce<number>((a, b) => a + (b ?? 0), 0);
  const reason = adding ? null : short ? MSG_EXTERNAL.notEnoughCredits : videos.length === 0 ? MSG_EXTERNAL.selectOne : null;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !adding && onClose()}
      title={MSG_EXTERNAL.confirmTitle}
      width={520}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={adding}>
            Cancel
          </Button>
          <ReasonTooltip reason={reason}>
            <Button
              busy={adding}
              disabled={Boolean(reason) || adding || (newLibrary && generating)}
              onClick={() => onConfirm({ newLibraryName: newLibrary ? name.trim() || DEFAULT_IMPORT_COLLECTION_NAME : null })}
            >
              Add {videos.length} video{videos.length === 1 ? '' : 's'}
            </Button>
          </ReasonTooltip>
        </>
      }
    >
      <p className="link-confirm__what">
        <strong>{videos.length === 1 ? videos[0]!.title : info.title}</strong>
        <br />
        {videos.length} video(s){knownTotal ? ` • ${formatDuration(knownTotal)} total duration` : ''}
      </p>
      {figures && (
        <p className="link-confirm__credits" data-testid="import-credits">
          {figures.approx === null || figures.after === null
            ? MSG_EXTERNAL.creditsUnknown(figures.left)
            : MSG_EXTERNAL.creditsSummary(figures.approx, figures.left, figures.after)}
        </p>
      )}
      {short && (
        <Alert tone="error">
          {MSG_EXTERNAL.notEnoughCredits} {MSG_EXTERNAL.notEnoughCreditsHint}
        </Alert>
      )}
      {youtube && <Alert tone="warning">{MSG_EXTERNAL.youtubeIntermittent}</Alert>}
      {!forceNewLibrary && <Checkbox checked={newLibrary} onCheckedChange={setNewLibrary} label="Add to a new library" />}
      {newLibrary && (
        <TextField
          label="New library name"
          value={name}
          placeholder={generating ? 'Generating a name...' : DEFAULT_IMPORT_COLLECTION_NAME}
          maxLength={LIBRARY_NAME_MAX}
          disabled={generating}
          onChange={(e) => setName(e.target.value)}
        />
      )}
    </Dialog>
  );
}
