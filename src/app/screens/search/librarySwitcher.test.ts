import { describe, expect, it } from 'vitest';
import {
  closeSwitcher,
  deselectAllMatching,
  effectiveSelection,
  filterPillTitle,
  leaveMulti,
  pickSingle,
  selectAllMatching,
  switcherName,
  switcherSummary,
  toggleMulti,
} from './librarySwitcher';

const demo = { id: 'demo', name: 'Welcome Library', isDemo: true };
const mine = { id: 'mine', name: 'My Library', isDemo: false };
const holiday = { id: 'hol', name: 'Holiday clips 2024 in the mountains', isDemo: false };
const work = { id: 'work', name: 'Work recordings', isDemo: false };
const list = [demo, mine, holiday, work];

describe('library switcher', () => {
  it('single-select replaces the selection', () => {
    expect(pickSingle('hol')).toEqual(['hol']);
  });

  it('multi-select toggles libraries in and out, in order', () => {
    expect(toggleMulti(['mine'], 'hol')).toEqual(['mine', 'hol']);
    expect(toggleMulti(['mine', 'hol'], 'mine')).toEqual(['hol']);
  });

  it('select all and deselect all honour the filter text', () => {
    expect(selectAllMatching(['demo'], list, '')).toEqual(['demo', 'mine', 'hol', 'work']);
    expect(selectAllMatching(['demo'], list, 'LIBRARY')).toEqual(['demo', 'mine']);
    expect(deselectAllMatching(['demo', 'mine', 'work'], list, 'library')).toEqual(['work']);
    expect(deselectAllMatching(['demo', 'mine', 'work'], list, '  ')).toEqual([]);
  });

  it('turning multi-select off keeps only the first selected', () => {
    expect(leaveMulti(['work', 'mine', 'demo'])).toEqual(['work']);
    expect(leaveMulti([])).toEqual([]);
  });

  it('closing with nothing selected selects the demo library and says so', () => {
    expect(closeSwitcher(['mine'], [], list)).toEqual({ selection: ['demo'], notice: 'demo' });
    // Unknown ids count as nothing.
    expect(closeSwitcher(['mine'], ['gone'], list)).toEqual({ selection: ['demo'], notice: 'demo' });
  });

  it('closing announces a change only when the libraries differ', () => {
    expect(closeSwitcher(['mine'], ['hol'], list)).toEqual({ selection: ['hol'], notice: 'changed' });
    expect(closeSwitcher(['mine', 'hol'], ['hol', 'mine'], list)).toEqual({ selection: ['hol', 'mine'], notice: null });
  });

  it('searches the demo library when nothing (known) is chosen, remembered or filled', () => {
    expect(effectiveSelection([], list)).toEqual(['demo']);
    expect(effectiveSelection(['gone', 'work'], list)).toEqual(['work']);
    expect(effectiveSelection([], [mine])).toEqual([]);
    expect(effectiveSelection([], list, ['gone'])).toEqual(['demo']);
  });

  it('with nothing chosen, opens on the libraries last searched, browsed or uploaded into (issue 37, item 8)', () => {
    expect(effectiveSelection([], list, ['hol'])).toEqual(['hol']);
    expect(effectiveSelection([], list, ['gone', 'work', 'mine'])).toEqual(['work', 'mine']);
    // what the address names still comes first
    expect(effectiveSelection(['mine'], list, ['hol'])).toEqual(['mine']);
    // the demo library, when it was the one last searched
    expect(effectiveSelection([], list, ['demo'])).toEqual(['demo']);
  });

  it('with nothing chosen or remembered, opens on an own library holding media (the default first) before the demo library', () => {
    const filled = [demo, { ...mine, isDefault: true }, { ...holiday, hasMedia: true }, { ...work, hasMedia: true }];
    expect(effectiveSelection([], filled)).toEqual(['hol']);
    filled[1] = { ...mine, isDefault: true, hasMedia: true };
    expect(effectiveSelection([], filled)).toEqual(['mine']);
    expect(effectiveSelection([], [{ ...demo, hasMedia: true }, mine])).toEqual(['demo']);
  });

  it('truncates the name at 20 characters and the filter pill at 8', () => {
    expect(switcherName('Holiday clips 2024 in the mountains')).toBe('Holiday clips 2024 i...');
    expect(switcherName('Exactly twenty chars')).toBe('Exactly twenty chars');
    expect(filterPillTitle(' mountains ')).toBe('mountain...');
    expect(filterPillTitle('kites')).toBe('kites');
  });

  it('summarises: up to two icons plus +N, a name for one library', () => {
    expect(switcherSummary(['hol'], list)).toEqual({ icons: [holiday], more: 0, count: 1, name: 'Holiday clips 2024 i...' });
    const many = switcherSummary(['demo', 'mine', 'hol', 'work'], list);
    expect(many.icons).toEqual([demo, mine]);
    expect(many.more).toBe(2);
    expect(many.count).toBe(4);
    expect(many.name).toBeNull();
  });
});
