import { useState } from 'react';
import { MSG_SEARCH_UI, type Library } from '../../../contract';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { IconCheck, IconChevronDown, IconClose, IconSearch } from '../../ui/icons';
import { Popover } from '../../ui/Popover';
import { Switch } from '../../ui/Switch';
import { libraryName } from '../../libraries/LibraryCard';
import {
  closeSwitcher,
  deselectAllMatching,
  filterLibraries,
  filterPillTitle,
  leaveMulti,
  pickSingle,
  selectAllMatching,
  switcherSummary,
  toggleMulti,
  type SwitcherLibrary,
} from './librarySwitcher';

type Entry = SwitcherLibrary & { library: Library };

/** A hue that stays with a library id, so its tile looks the same everywhere. */
const hueOf = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);

/** A library's tile: its initial on a colour of its own (a video frame is unreadable at this size). */
export function LibraryIcon({ library, size = 24 }: { library: Library; size?: number }) {
  const hue = hueOf(library._id);
  return (
    <span
      className="library-icon"
      style={{
        width: size,
        height: size,
        fontSize: Math.round(size * 0.46),
        background: `linear-gradient(135deg, hsl(${hue} 70% 58%), hsl(${(hue + 40) % 360} 65% 45%))`,
      }}
      aria-hidden="true"
    >
      {libraryName(library).slice(0, 1).toUpperCase() || '?'}
    </span>
  );
}

/**
 * The search bar's library switcher (spec section 4): single-select by default (a pick selects and
 * closes); multi-select toggles, with Select all / Deselect all acting on the filtered list. Closing
 * with nothing selected falls back to the demo library; a changed selection is announced.
 */
export function LibrarySwitcher({
  libraries,
  selection,
  onChange,
}: {
  libraries: readonly Library[];
  selection: readonly string[];
  onChange: (selection: string[]) => void;
}) {
  const entries: Entry[] = libraries.map((l) => ({ id: l._id, name: libraryName(l), isDemo: l.isDemo, library: l }));
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState<string[]>([]);
  const [draft, setDraft] = useState<string[]>([]);
  const [multi, setMulti] = useState(false);
  const [filter, setFilter] = useState('');

  const summary = switcherSummary(selection, entries);
  const shown = filterLibraries(entries, filter);

  const start = () => {
    setOpened([...selection]);
    setDraft([...selection]);
    setMulti(selection.length > 1);
    setFilter('');
    setOpen(true);
  };
  const finish = (final: string[]) => {
    setOpen(false);
    const { selection: next, notice } = closeSwitcher(opened, final, entries);
    if (notice === 'demo') showToast(MSG_SEARCH_UI.switchingToDemo, { title: MSG_SEARCH_UI.noLibrarySelected });
    else if (notice === 'changed') showToast(MSG_SEARCH_UI.libraryChanged, { tone: 'success' });
    if (notice) onChange(next);
  };
  const setMultiMode = (on: boolean) => {
    setMulti(on);
    // Back to single-select: only the first selected library stays.
    if (!on) setDraft((d) => leaveMulti(d));
  };
  const pick = (id: string) => {
    if (multi) setDraft((d) => toggleMulti(d, id));
    else finish(pickSingle(id));
  };

  const label = summary.count > 1 ? MSG_SEARCH_UI.searchingLibraries(summary.count) : (summary.name ?? 'Choose a library');
  return (
    <Popover
      open={open}
      onOpenChange={(o) => (o ? start() : finish(draft))}
      label="Libraries to search"
      className="switcher"
      trigger={
        <button type="button" className="switcher__trigger" aria-label={`Libraries: ${label}`} disabled={!entries.length}>
          <span className="switcher__icons">
            {summary.icons.map((l) => (
              <LibraryIcon key={l.id} library={(l as Entry).library} size={22} />
            ))}
            {summary.more > 0 && <span className="switcher__more">+{summary.more}</span>}
          </span>
          <span className="switcher__label">{label}</span>
          <IconChevronDown size={16} />
        </button>
      }
    >
      <div className="switcher__head">
        <span className="switcher__title">Libraries</span>
        <Switch checked={multi} onCheckedChange={setMultiMode} label="Select multiple" />
      </div>
      <label className="search-input switcher__filter">
        <IconSearch size={16} />
        <span className="visually-hidden">Filter libraries</span>
        <input type="search" placeholder="Filter libraries" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </label>
      {(filter.trim() || multi) && (
        <div className="switcher__tools spread">
          {filter.trim() && (
            <span className="pill pill--accent switcher__pill" title={filter.trim()}>
              {filterPillTitle(filter)}
              <button type="button" className="switcher__pill-clear" aria-label="Clear filter" onClick={() => setFilter('')}>
                <IconClose size={12} />
              </button>
            </span>
          )}
          {multi && (
            <span className="switcher__bulk">
              <Button size="sm" variant="ghost" onClick={() => setDraft((d) => selectAllMatching(d, entries, filter))}>
                Select all
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setDraft((d) => deselectAllMatching(d, entries, filter))}>
                Deselect all
              </Button>
            </span>
          )}
        </div>
      )}
      <ul className="switcher__list">
        {shown.map((e) => {
          const on = draft.includes(e.id);
          const count = e.library.stats.breakdown.completed.count;
          return (
            <li key={e.id}>
              <button type="button" className="switcher__item" aria-pressed={on} onClick={() => pick(e.id)}>
                <span className={`switcher__check${multi ? ' switcher__check--box' : ''}`} data-on={on || undefined}>
                  {on && <IconCheck size={14} strokeWidth={3} />}
                </span>
                <LibraryIcon library={e.library} size={28} />
                <span className="switcher__item-text">
                  <span className="switcher__item-name" title={e.name}>
                    {e.name}
                  </span>
                  <span className="switcher__item-meta">
                    {count} {count === 1 ? 'video' : 'videos'} ready{e.isDemo ? ' · Demo' : ''}
                  </span>
                </span>
              </button>
            </li>
          );
        })}
        {!shown.length && <li className="switcher__empty">No library matches “{filter.trim()}”.</li>}
      </ul>
    </Popover>
  );
}
