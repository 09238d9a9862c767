import type { TranscriptLine } from '../../contract';
import type { KeyLike } from '../../engine/kernels/keyboard';

/**
 * Pure rules of correcting the transcript in the side panel, keyboard first as in Descript: a line
 * is selected (focused), Enter (or F2, or a double click) edits it in place, Enter saves, Escape
 * cancels, Tab saves and goes on to edit the next line (Shift+Tab the previous one).
 */

/** What a key does on a selected line (not being edited). */
export type LineKey = 'next' | 'previous' | 'first' | 'last' | 'edit';

export function lineKey(e: KeyLike, editable: boolean): LineKey | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return null;
  switch (e.key) {
    case 'ArrowDown':
      return 'next';
    case 'ArrowUp':
      return 'previous';
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'Enter':
    case 'F2':
      return editable && !e.shiftKey ? 'edit' : null;
    default:
      return null;
  }
}

/** What a key does in the line's editor. */
export type EditKey = 'save' | 'cancel' | 'saveNext' | 'savePrevious';

export function editKey(e: KeyLike): EditKey | null {
  // Enter that confirms an input method's composition is the composition's.
  if (e.isComposing || e.ctrlKey || e.metaKey || e.altKey) return null;
  switch (e.key) {
    case 'Enter':
      // A line has no line breaks: Shift+Enter saves too.
      return 'save';
    case 'Escape':
      return 'cancel';
    case 'Tab':
      return e.shiftKey ? 'savePrevious' : 'saveNext';
    default:
      return null;
  }
}

/** The line a move lands on, within 0..count-1 (from nothing selected, the first). */
export function moveTo(index: number, move: Exclude<LineKey, 'edit'>, count: number): number {
  if (count <= 0) return -1;
  switch (move) {
    case 'first':
      return 0;
    case 'last':
      return count - 1;
    case 'next':
      return index < 0 ? 0 : Math.min(count - 1, index + 1);
    case 'previous':
      return index < 0 ? 0 : Math.max(0, index - 1);
  }
}

/** A draft as a line holds it: pasted line breaks and tabs become spaces (other controls are refused on save). */
export const flattenDraft = (s: string) => s.replace(/[\r\n\t\u2028\u2029]+/g, ' ');

/** A line's open editor: its draft, and what is wrong with it when a save was refused. */
export interface Editing {
  id: string;
  draft: string;
  error: string | null;
}

/** Where a line's save stands, while and after it is sent. */
export type LineStatus =
  | { kind: 'saving'; text: string }
  | { kind: 'saved'; restored: boolean }
  | { kind: 'failed'; text: string; message: string; restore: boolean };

/** The text a line shows: what is being (or failed to be) saved, else the saved text. */
export const shownText = (line: TranscriptLine, status: LineStatus | undefined) =>
  status && status.kind !== 'saved' ? status.text : line.text;
