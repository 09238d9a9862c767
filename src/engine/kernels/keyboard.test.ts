import { describe, expect, it } from 'vitest';
import { isTypingTarget, keyCommand, nextShuttle, takesSpace } from './keyboard';

const el = (tagName: string, attrs: Record<string, string> = {}, isContentEditable = false) => ({
  tagName,
  isContentEditable,
  getAttribute: (n: string) => attrs[n] ?? null,
});

describe('keyboard map', () => {
  it('maps every key', () => {
    expect(keyCommand({ key: 'ArrowLeft' })).toEqual({ type: 'seekBy', seconds: -5 });
    expect(keyCommand({ key: 'ArrowRight' })).toEqual({ type: 'seekBy', seconds: 5 });
    expect(keyCommand({ key: 'ArrowLeft', shiftKey: true })).toEqual({ type: 'seekBy', seconds: -1 });
    expect(keyCommand({ key: 'ArrowRight', shiftKey: true })).toEqual({ type: 'seekBy', seconds: 1 });
    expect(keyCommand({ key: ' ' })).toEqual({ type: 'togglePlay' });
    expect(keyCommand({ key: ',' })).toEqual({ type: 'stepFrames', frames: -1 });
    expect(keyCommand({ key: '.' })).toEqual({ type: 'stepFrames', frames: 1 });
    expect(keyCommand({ key: 'j' })).toEqual({ type: 'shuttle', direction: -1 });
    expect(keyCommand({ key: 'K' })).toEqual({ type: 'shuttle', direction: 0 });
    expect(keyCommand({ key: 'l' })).toEqual({ type: 'shuttle', direction: 1 });
    expect(keyCommand({ key: 'i' })).toEqual({ type: 'markIn' });
    expect(keyCommand({ key: 'O' })).toEqual({ type: 'markOut' });
    expect(keyCommand({ key: 'Home' })).toEqual({ type: 'seekTo', to: 'start' });
    expect(keyCommand({ key: 'End' })).toEqual({ type: 'seekTo', to: 'end' });
    expect(keyCommand({ key: 'x' })).toBeNull();
    expect(keyCommand({ key: 'Enter' })).toBeNull();
  });

  it('leaves chords and composition alone', () => {
    expect(keyCommand({ key: 'l', ctrlKey: true })).toBeNull();
    expect(keyCommand({ key: 'ArrowLeft', metaKey: true })).toBeNull();
    expect(keyCommand({ key: 'i', altKey: true })).toBeNull();
    expect(keyCommand({ key: 'j', isComposing: true })).toBeNull();
  });

  it('ignores keys typed into fields and widgets', () => {
    for (const target of [
      el('INPUT'),
      el('textarea'),
      el('SELECT'),
      el('DIV', {}, true),
      el('SPAN', { role: 'slider' }),
      el('DIV', { role: 'textbox' }),
    ]) {
      expect(isTypingTarget(target)).toBe(true);
      expect(keyCommand({ key: 'ArrowLeft', target })).toBeNull();
    }
    expect(isTypingTarget(el('DIV'))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(keyCommand({ key: 'ArrowLeft', target: el('DIV') })).toEqual({ type: 'seekBy', seconds: -5 });
  });

  it('lets a focused button have its Space', () => {
    expect(keyCommand({ key: ' ', target: el('BUTTON') })).toBeNull();
    expect(keyCommand({ key: 'l', target: el('BUTTON') })).toEqual({ type: 'shuttle', direction: 1 });
  });

  it('gives Space to a control only when the keyboard brought focus there, and to text fields always', () => {
    const play = { type: 'togglePlay' };
    const input = (type?: string) => ({ ...el('INPUT'), type });
    for (const control of [
      el('BUTTON'),
      el('DIV', { role: 'button' }),
      el('BUTTON', { role: 'checkbox' }),
      el('BUTTON', { role: 'radio' }),
      input('checkbox'),
    ]) {
      expect(takesSpace(control, true)).toBe(true);
      expect(keyCommand({ key: ' ', target: control }, true)).toBeNull();
      expect(takesSpace(control, false)).toBe(false);
      expect(keyCommand({ key: ' ', target: control }, false)).toEqual(play);
    }
    // Text fields (a select's type-ahead too) type it however they got focus.
    for (const field of [input(), input('search'), el('TEXTAREA'), el('SELECT'), el('DIV', {}, true), el('DIV', { role: 'textbox' })])
      expect(keyCommand({ key: ' ', target: field }, false)).toBeNull();
    // A slider takes the arrows, not Space; a list item or the dialog itself neither.
    expect(keyCommand({ key: ' ', target: el('SPAN', { role: 'slider' }) }, true)).toEqual(play);
    expect(keyCommand({ key: 'ArrowLeft', target: el('SPAN', { role: 'slider' }) }, true)).toBeNull();
    expect(keyCommand({ key: ' ', target: input('range') }, true)).toEqual(play);
    expect(keyCommand({ key: ' ', target: el('LI') }, true)).toEqual(play);
    expect(keyCommand({ key: ' ', target: el('DIV', { role: 'dialog' }) }, true)).toEqual(play);
  });

  it('shuttles J/K/L: doubling up to 8x each way', () => {
    const seq = (start: number, dirs: (-1 | 0 | 1)[]) => dirs.reduce((r, d) => nextShuttle(r, d), start);
    expect(seq(0, [1])).toBe(1);
    expect(seq(0, [1, 1])).toBe(2);
    expect(seq(0, [1, 1, 1, 1, 1, 1])).toBe(8);
    expect(seq(0, [-1, -1, -1])).toBe(-4);
    expect(seq(4, [-1])).toBe(-1);
    expect(seq(-8, [1])).toBe(1);
    expect(seq(-8, [0])).toBe(0);
  });
});
