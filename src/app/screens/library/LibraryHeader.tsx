import { useRef } from 'react';
import { Link } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { mediaCountLabel, ROUTES, statusCounts, type Media } from '../../../contract';
import { preferences, setPreference } from '../../state/preferences';
import { Button } from '../../ui/Button';
import { formatDuration } from '../../ui/format';
import { IconChevronLeft, IconFolder, IconGrid, IconList, IconLock, IconPlus } from '../../ui/icons';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { Switch } from '../../ui/Switch';
import { ReasonTooltip, Tooltip } from '../../ui/Tooltip';
import { FileInput } from '../../upload/UploadBox';
import { useLibraryPage } from './LibraryContext';
import { readOnlyReason } from './libraryActions';
import { formatTotalSize, totals } from './mediaListing';
import { statusCounters, type StatusGroups } from './StatusModals';

/** The library's name, its figures and status counters, the view toggle, New folder and Add videos. */
export function LibraryHeader({ files, groups, onFiles }: { files: Media[]; groups: StatusGroups; onFiles: (files: File[]) => void }) {
  const { library, store, actions } = useLibraryPage();
  const { libraryViewMode, autoplayVideos } = useSnapshot(preferences);
  const inputRef = useRef<HTMLInputElement>(null);
  const readOnly = readOnlyReason(library);
  const counts = statusCounts(files.map((m) => m.status));
  const photos = statusCounts(files.filter((m) => m.kind === 'image').map((m) => m.status)).displayed;
  const sums = totals(files);
  const counters = statusCounters(groups);
  const newFolderReason = actions.canRun('newFolder');
  const addReason = actions.canRun('addVideos');
  return (
    <>
      <Link to={ROUTES.libraries} className="library-page__back">
        <IconChevronLeft size={16} /> Libraries
      </Link>
      <header className="library-header">
        <div className="library-header__main">
          <div className="library-header__name-row">
            <h1 className="page__title library-header__name">{library.name}</h1>
            {readOnly && (
              <Tooltip content={readOnly} side="bottom">
                <span className="pill pill--muted" tabIndex={0}>
                  <IconLock size={13} /> Read-only
                </span>
              </Tooltip>
            )}
          </div>
          <div className="library-stats">
            <span>{mediaCountLabel(counts.displayed, photos)}</span>
            {(photos < counts.displayed || counts.displayed === 0) && (
              <span aria-label="Total duration">{formatDuration(sums.duration)}</span>
            )}
            <span aria-label="Total size">{formatTotalSize(files, sums.bytes)}</span>
            <button type="button" className="counter counter--processing" onClick={() => (store.statusModal = 'processing')}>
              <span className="counter__dot" data-active={counters.processing > 0 || undefined} />
              {counters.processing} processing
            </button>
            <button
              type="button"
              className="counter counter--failed"
              onClick={() => (store.statusModal = 'failed')}
              data-active={counters.failed > 0 || undefined}
            >
              <span className="counter__dot" />
              {counters.failed} failed
            </button>
          </div>
        </div>
        <div className="library-header__actions">
          {/* Phones have no hover to autoplay on: the switch leaves their narrow header to the list. */}
          <span className="library-header__autoplay">
            <Switch checked={autoplayVideos} onCheckedChange={(v) => setPreference('autoplayVideos', v)} label="Autoplay on hover" />
          </span>
          <SegmentedControl
            label="View"
            value={libraryViewMode}
            onValueChange={(v) => setPreference('libraryViewMode', v)}
            options={[
              {
                value: 'list',
                label: (
                  <>
                    <IconList size={18} />
                    <span className="visually-hidden">List view</span>
                  </>
                ),
              },
              {
                value: 'grid',
                label: (
                  <>
                    <IconGrid size={18} />
                    <span className="visually-hidden">Grid view</span>
                  </>
                ),
              },
            ]}
          />
          {/* On a phone an icon only, so it shares the row of the view toggle and Add videos. */}
          <ReasonTooltip reason={newFolderReason}>
            <Button
              variant="secondary"
              className="library-header__new-folder"
              onClick={() => actions.run('newFolder')}
              disabled={newFolderReason !== null}
            >
              <IconFolder size={18} />
              <span className="library-header__new-folder-label">New folder</span>
            </Button>
          </ReasonTooltip>
          <ReasonTooltip reason={addReason}>
            <Button onClick={() => actions.run('addVideos')} disabled={addReason !== null}>
              <IconPlus size={18} /> Add videos
            </Button>
          </ReasonTooltip>
          <FileInput inputRef={inputRef} onFiles={onFiles} />
        </div>
      </header>
    </>
  );
}
