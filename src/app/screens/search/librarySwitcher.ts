import { FILTER_PILL_MAX_CHARS, LIBRARY_SWITCHER } from '../../../contract';

/**
 * Rules of the search page's library switcher (spec section 4), on plain ids so they can be tested
 * without a DOM. A selection is an ordered list of library ids: "the first" is the first picked.
 */

export interface SwitcherLibrary {
  id: string;
  name: string;
  isDemo: boolean;
  /** Whether it holds media (an own library that does is searched before the demo library). */
  hasMedia?: boolean;
  isDefault?: boolean;
}

/** `text` cut to `max` characters with '...' when longer. */
export const truncate = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}...` : text);
export const switcherName = (name: string) => truncate(name, LIBRARY_SWITCHER.nameMaxChars);
export const filterPillTitle = (filter: string) => truncate(filter.trim(), FILTER_PILL_MAX_CHARS);

/** Libraries whose name contains the filter text (case-insensitive); all of them without a filter. */
export function filterLibraries<L extends SwitcherLibrary>(list: readonly L[], filter: string): L[] {
  const f = filter.trim().toLowerCase();
  return f ? list.filter((l) => l.name.toLowerCase().includes(f)) : [...list];
}

/** Single-select: picking a library makes it the whole selection. */
export const pickSingle = (id: string): string[] => [id];

/** Multi-select: a library toggles in or out, keeping the order of the others. */
export const toggleMulti = (selection: readonly string[], id: string): string[] =>
  selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id];

/** Select all honours the filter: every matching library joins, the rest of the selection stays. */
export function selectAllMatching(selection: readonly string[], list: readonly SwitcherLibrary[], filter: string): string[] {
  const out = [...selection];
  for (const l of filterLibraries(list, filter)) if (!out.includes(l.id)) out.push(l.id);
  return out;
}

/** Deselect all honours the filter: only matching libraries leave the selection. */
export function deselectAllMatching(selection: readonly string[], list: readonly SwitcherLibrary[], filter: string): string[] {
  const matching = new Set(filterLibraries(list, filter).map((l) => l.id));
  return selection.filter((id) => !matching.has(id));
}

/** Turning multi-select off keeps only the first selected library. */
export const leaveMulti = (selection: readonly string[]): string[] => selection.slice(0, 1);

/** Ids that name a known library, in order (a deleted or foreign id in the URL is dropped). */
export const knownSelection = (selection: readonly string[], list: readonly SwitcherLibrary[]) =>
  selection.filter((id) => list.some((l) => l.id === id));

export const demoLibraryOf = (list: readonly SwitcherLibrary[]) => list.find((l) => l.isDemo) ?? null;

/**
 * The selection the search uses: the known ones; with none chosen, the libraries last searched,
 * browsed or uploaded into (`remembered`, kept with the account); else an own library holding media
 * (the default one first); the demo library only when there is none of these (issue 37, item 8).
 */
export function effectiveSelection(
  selection: readonly string[],
  list: readonly SwitcherLibrary[],
  remembered: readonly string[] = [],
): string[] {
  const known = knownSelection(selection, list);
  if (known.length) return known;
  const last = knownSelection(remembered, list);
  if (last.length) return last;
  const filled = list.filter((l) => !l.isDemo && l.hasMedia);
  const own = filled.find((l) => l.isDefault) ?? filled[0];
  if (own) return [own.id];
  const demo = demoLibraryOf(list);
  return demo ? [demo.id] : [];
}

export type CloseNotice = 'demo' | 'changed' | null;

/**
 * What closing the menu does: with nothing selected the demo library is selected (and the user told);
 * a selection that differs from the one the menu opened with is announced as changed.
 */
export function closeSwitcher(
  opened: readonly string[],
  draft: readonly string[],
  list: readonly SwitcherLibrary[],
): { selection: string[]; notice: CloseNotice } {
  const known = knownSelection(draft, list);
  if (!known.length) {
    const demo = demoLibraryOf(list);
    return { selection: demo ? [demo.id] : [], notice: 'demo' };
  }
  return { selection: known, notice: sameSelection(opened, known) ? null : 'changed' };
}

/** Same libraries, whatever the order. */
export const sameSelection = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/** The trigger: up to two icons and a '+N' for the rest; one name, or 'Searching N libraries'. */
export function switcherSummary(selection: readonly string[], list: readonly SwitcherLibrary[]) {
  const chosen = selection.map((id) => list.find((l) => l.id === id)).filter((l): l is SwitcherLibrary => Boolean(l));
  return {
    icons: chosen.slice(0, LIBRARY_SWITCHER.maxIcons),
    more: Math.max(0, chosen.length - LIBRARY_SWITCHER.maxIcons),
    count: chosen.length,
    name: chosen.length === 1 ? switcherName(chosen[0]!.name) : null,
  };
}
