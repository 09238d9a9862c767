/**
 * How focus came to the focused element: by keyboard (Tab, or moved by a script after keyboard use)
 * or by a pointer. It is read when focus arrives, from :focus-visible: asking at the keydown is too
 * late, since Chromium makes a focused element match :focus-visible once a key is pressed on it (a
 * button clicked, then Space, reads as reached by keyboard). One capture listener on the document,
 * while anyone watches.
 */

let watchers = 0;
let focused: EventTarget | null = null;
let byKeyboard = true;

function focusVisible(target: EventTarget | null): boolean {
  const el = target as { matches?: (selector: string) => boolean } | null;
  if (typeof el?.matches !== 'function') return true;
  try {
    return el.matches(':focus-visible');
  } catch {
    // (no :focus-visible in this browser: as if by keyboard, so a control keeps its keys)
    return true;
  }
}

function onFocusIn(e: Event) {
  focused = e.target;
  byKeyboard = focusVisible(e.target);
}

/** Starts watching `doc`'s focus; returns the stop (for a `Teardown`). Watchers are counted. */
export function watchFocusOrigin(doc: Pick<Document, 'addEventListener' | 'removeEventListener'> = document): () => void {
  if (watchers++ === 0) doc.addEventListener('focusin', onFocusIn, true);
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    if (--watchers > 0) return;
    doc.removeEventListener('focusin', onFocusIn, true);
    focused = null;
    byKeyboard = true;
  };
}

/** Whether focus reached `target` by keyboard; true when that is not known (it was focused before anyone watched). */
export function focusedByKeyboard(target: EventTarget | null): boolean {
  return target === focused ? byKeyboard : true;
}
