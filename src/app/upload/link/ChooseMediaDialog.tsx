import { useMemo, useState } from 'react';
import {
  DURATION_FILTER_UNITS,
  IMPORT_GRID_ROW_HEIGHT,
  MSG_EXTERNAL,
  type DurationFilterUnit,
  type LinkInfo,
  type LinkVideo,
} from '../../../contract';
import { Button } from '../../ui/Button';
import { CheckboxControl } from '../../ui/Checkbox';
import { Dialog } from '../../ui/Dialog';
import { Select } from '../../ui/Select';
import { ReasonTooltip } from '../../ui/Tooltip';
import { choosable, filterByDuration, nextSort, sortVideos, type DurationOp, type SortKey, type SortState } from './linkImport';
import { formatDuration } from '../../ui/format';

type Row = LinkVideo & { duration: number };

const UNIT_OPTIONS = (Object.keys(DURATION_FILTER_UNITS) as DurationFilterUnit[]).map((u) => ({ value: u, label: u }));
const OP_OPTIONS: Array<{ value: DurationOp; label: string }> = [
  { value: 'gte', label: 'At least' },
  { value: 'lte', label: 'At most' },
];

/**
 * The choose-media modal (section 2): the link's videos in a data grid (row height 86), sortable by
 * title, duration and date (ascending, then descending) and filtered by duration in seconds,
 * minutes or hours. Videos already in the library carry an 'In library' badge and cannot be chosen.
 */
export function ChooseMediaDialog({
  info,
  knownUniqueIds,
  onClose,
  onChoose,
}: {
  info: LinkInfo;
  knownUniqueIds: ReadonlySet<string>;
  onClose: () => void;
  onChoose: (videos: Row[]) => void;
}) {
  const all = useMemo(() => choosable(info.videos), [info]);
  const [sort, setSort] = useState<SortState | null>(null);
  const [filterText, setFilterText] = useState('');
  const [unit, setUnit] = useState<DurationFilterUnit>('minutes');
  const [op, setOp] = useState<DurationOp>('gte');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const rows = useMemo(() => sortVideos(filterByDuration(all, filterText, unit, op), sort), [all, filterText, unit, op, sort]);
  const selectable = rows.filter((r) => !knownUniqueIds.has(r.uniqueId));
  const chosen = all.filter((v) => selected.has(v.uniqueId) && !knownUniqueIds.has(v.uniqueId));
  const allChecked = selectable.length > 0 && selectable.every((r) => selected.has(r.uniqueId));

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const toggleAll = (on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      for (const r of selectable) {
        if (on) next.add(r.uniqueId);
        else next.delete(r.uniqueId);
      }
      return next;
    });

  const header = (key: SortKey, label: string) => (
    <th scope="col" aria-sort={sort?.key === key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <button type="button" className="link-grid__sort" onClick={() => setSort((s) => nextSort(s, key))}>
        {label}
        <span aria-hidden="true">{sort?.key === key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
      </button>
    </th>
  );

  const noneReason = chosen.length === 0 ? MSG_EXTERNAL.selectOne : null;

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={MSG_EXTERNAL.chooseTitle}
      description={`${info.title} • ${all.length} video(s)`}
      width={920}
      footer={
        <>
          <span className="link-grid__count" aria-live="polite">
            {chosen.length} selected • {formatDuration(chosen.reduce((s, v) => s + v.duration, 0))}
          </span>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <ReasonTooltip reason={noneReason}>
            <Button onClick={() => onChoose(chosen)} disabled={Boolean(noneReason)}>
              Add selected
            </Button>
          </ReasonTooltip>
        </>
      }
    >
      <div className="link-grid__filter" role="group" aria-label="Duration filter">
        <Select label="Duration is" hideLabel value={op} options={OP_OPTIONS} onValueChange={setOp} />
        <input
          className="field__input link-grid__filter-input"
          inputMode="decimal"
          aria-label="Duration"
          placeholder="Any"
          value={filterText}
          onChange={(e) => setFilterText(e.target.value)}
        />
        <Select label="Unit" hideLabel value={unit} options={UNIT_OPTIONS} onValueChange={setUnit} />
      </div>
      <div className="link-grid__scroll">
        <table className="link-grid" aria-label="Videos of the link">
          <thead>
            <tr>
              <th scope="col" className="link-grid__check">
                <CheckboxControl
                  checked={allChecked}
                  onCheckedChange={(v) => toggleAll(v === true)}
                  label="Select all videos"
                  disabled={!selectable.length}
                />
              </th>
              {header('title', 'Title')}
              {header('duration', 'Duration')}
              {header('publishedAt', 'Published')}
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => {
              const inLibrary = knownUniqueIds.has(v.uniqueId);
              return (
                <tr
                  key={v.uniqueId}
                  style={{ height: IMPORT_GRID_ROW_HEIGHT }}
                  className={inLibrary ? 'link-grid__row--in-library' : undefined}
                >
                  <td className="link-grid__check">
                    <CheckboxControl
                      checked={!inLibrary && selected.has(v.uniqueId)}
                      onCheckedChange={(on) => toggle(v.uniqueId, on === true)}
                      disabled={inLibrary}
                      label={`Select ${v.title}`}
                    />
                  </td>
                  <td>
                    <div className="link-grid__title">
                      {v.thumbnail ? (
                        <img src={v.thumbnail} alt="" width={96} height={54} loading="lazy" referrerPolicy="no-referrer" />
                      ) : (
                        <span className="link-grid__thumb" aria-hidden="true" />
                      )}
                      <span>
                        <span className="link-grid__name">{v.title}</span>
                        {inLibrary && <span className="pill pill--accent link-grid__badge">{MSG_EXTERNAL.inLibrary}</span>}
                      </span>
                    </div>
                  </td>
                  <td className="link-grid__num">{formatDuration(v.duration)}</td>
                  <td>{v.publishedAt ? new Date(v.publishedAt).toLocaleDateString() : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {!rows.length && <p className="link-grid__empty">No videos match the filter.</p>}
      </div>
    </Dialog>
  );
}
