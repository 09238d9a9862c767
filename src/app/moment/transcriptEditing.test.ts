import { describe, expect, it } from 'vitest';
import type { TranscriptLine } from '../../contract';
import { editKey, flattenDraft, lineKey, moveTo, shownText } from './transcriptEditing';

describe('transcript editing keys', () => {
  it('moves between lines with the arrows, Home and End, and edits with Enter or F2 when editable', () => {
    expect(lineKey({ key: 'ArrowDown' }, true)).toBe('next');
    expect(lineKey({ key: 'ArrowUp' }, false)).toBe('previous');
    expect(lineKey({ key: 'Home' }, true)).toBe('first');
    expect(lineKey({ key: 'End' }, true)).toBe('last');
    expect(lineKey({ key: 'Enter' }, true)).toBe('edit');
    expect(lineKey({ key: 'F2' }, true)).toBe('edit');
    // read-only: Enter is the line's button (it seeks); chords are someone else's
    expect(lineKey({ key: 'Enter' }, false)).toBeNull();
    expect(lineKey({ key: 'ArrowDown', ctrlKey: true }, true)).toBeNull();
    expect(lineKey({ key: ' ' }, true)).toBeNull();
    expect(lineKey({ key: 'k' }, true)).toBeNull();
  });

  it('saves with Enter, cancels with Escape, and goes on with Tab and Shift+Tab', () => {
    expect(editKey({ key: 'Enter' })).toBe('save');
    expect(editKey({ key: 'Enter', shiftKey: true })).toBe('save');
    expect(editKey({ key: 'Escape' })).toBe('cancel');
    expect(editKey({ key: 'Tab' })).toBe('saveNext');
    expect(editKey({ key: 'Tab', shiftKey: true })).toBe('savePrevious');
    expect(editKey({ key: 'a' })).toBeNull();
    expect(editKey({ key: 'ArrowDown' })).toBeNull();
    // an input method's Enter confirms its composition, not the line
    expect(editKey({ key: 'Enter', isComposing: true })).toBeNull();
  });

  it('keeps moves inside the list', () => {
    expect(moveTo(2, 'next', 3)).toBe(2);
    expect(moveTo(0, 'previous', 3)).toBe(0);
    expect(moveTo(-1, 'next', 3)).toBe(0);
    expect(moveTo(1, 'last', 3)).toBe(2);
    expect(moveTo(1, 'first', 3)).toBe(0);
    expect(moveTo(0, 'next', 0)).toBe(-1);
  });

  it('turns pasted line breaks and tabs into spaces', () => {
    expect(flattenDraft('one\ntwo\r\nthree\tfour')).toBe('one two three four');
  });

  it('shows the text being saved, or the one that failed to save, over the saved one', () => {
    const line: TranscriptLine = { id: 'a', start: 0, end: 1, text: 'saved', speaker: null, original: null, changes: 0 };
    expect(shownText(line, undefined)).toBe('saved');
    expect(shownText(line, { kind: 'saving', text: 'typed' })).toBe('typed');
    expect(shownText(line, { kind: 'failed', text: 'typed', message: 'offline', restore: false })).toBe('typed');
    expect(shownText(line, { kind: 'saved', restored: false })).toBe('saved');
  });
});
