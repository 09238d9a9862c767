import { describe, expect, it } from 'vitest';
import { focusedByKeyboard, watchFocusOrigin } from './focusOrigin';

/** A document that hands focus events to its one listener when the test says so. */
function fakeDocument() {
  const listeners = new Set<(e: Event) => void>();
  return {
    listeners,
    addEventListener: (_type: string, fn: (e: Event) => void) => void listeners.add(fn),
    removeEventListener: (_type: string, fn: (e: Event) => void) => void listeners.delete(fn),
    focus: (target: object) => listeners.forEach((fn) => fn({ target } as unknown as Event)),
  };
}

/** An element that shows :focus-visible when it takes focus (Tab) or not (a click). */
const element = (visible: boolean) => ({ matches: (s: string) => s === ':focus-visible' && visible });

describe('focus origin', () => {
  it('remembers whether focus arrived by keyboard, as :focus-visible said when it arrived', () => {
    const doc = fakeDocument();
    const stop = watchFocusOrigin(doc as unknown as Document);
    const clicked = element(false);
    const tabbed = element(true);
    doc.focus(clicked);
    expect(focusedByKeyboard(clicked as unknown as EventTarget)).toBe(false);
    // A key pressed later makes Chromium show :focus-visible on it: what counts is how focus came.
    clicked.matches = () => true;
    expect(focusedByKeyboard(clicked as unknown as EventTarget)).toBe(false);
    doc.focus(tabbed);
    expect(focusedByKeyboard(tabbed as unknown as EventTarget)).toBe(true);
    // Not known (not the element focus last came to): as if by keyboard, the element keeps its keys.
    expect(focusedByKeyboard(element(false) as unknown as EventTarget)).toBe(true);
    stop();
    expect(doc.listeners.size).toBe(0);
  });

  it('keeps one listener while anyone watches', () => {
    const doc = fakeDocument();
    const a = watchFocusOrigin(doc as unknown as Document);
    const b = watchFocusOrigin(doc as unknown as Document);
    expect(doc.listeners.size).toBe(1);
    a();
    a();
    expect(doc.listeners.size).toBe(1);
    const clicked = element(false);
    doc.focus(clicked);
    expect(focusedByKeyboard(clicked as unknown as EventTarget)).toBe(false);
    b();
    expect(doc.listeners.size).toBe(0);
    expect(focusedByKeyboard(clicked as unknown as EventTarget)).toBe(true);
  });
});
