import { useEffect } from 'react';
import { focusedByKeyboard, watchFocusOrigin } from '../../engine/core/focusOrigin';

// What a modal layer (Dialog, Sheet) guarantees beyond Radix's focus trap: keys pressed in it never
// reach the page behind it, and focus never falls out of it to the document's body.

/** The page behind every layer: the app's React root (layers, toasts included, are portalled to body). */
const PAGE_ID = 'root';

/** Modal layers open now: the page stays inert until the last one closes. */
let openLayers = 0;

/**
 * While `active`, the page behind is inert. Radix only hides it from assistive technology; the
 * browser's own undo (Ctrl/Cmd+Z) works on the document's undo history, so with focus on any button
 * of a dialog, or in a dialog's field with nothing of its own to undo, it edited the search box
 * behind (`kite` became `ki`). Inert content is neither focused nor edited, by keys or by undo.
 */
export function useInertPage(active: boolean) {
  useEffect(() => {
    const page = document.getElementById(PAGE_ID);
    if (!active || !page) return;
    openLayers++;
    page.inert = true;
    return () => {
      openLayers--;
      if (openLayers === 0) page.inert = false;
    };
  }, [active]);
}

/** Controls a lost focus may go to: no fields (focus puts a time code field into editing). */
const NEIGHBOURS = 'button, [role="button"], a[href]';
/** Where a control's neighbours are: the group or toolbar it belongs to. */
const GROUP = '[role="group"], [role="toolbar"], [role="radiogroup"]';

const canFocus = (el: HTMLElement) =>
  !el.matches(':disabled') && el.tabIndex >= 0 && !el.closest('[inert], [hidden]') && el.getClientRects().length > 0;

/**
 * Where focus goes when `lost` (inside `layer`) no longer holds it. A control that disabled itself
 * hands it to the nearest control of its group that can take it (the one before it first: Redo
 * disabled after the last redo hands focus to Undo, Undo after the last undo to Redo); one that was
 * blurred on purpose (a time code field after Enter), or has no such neighbour, to the layer itself,
 * which keeps the layer's keys (Escape, Space).
 */
export function focusFallback(lost: HTMLElement, layer: HTMLElement): HTMLElement {
  const group = canFocus(lost) ? null : lost.closest<HTMLElement>(GROUP);
  if (group && layer.contains(group)) {
    const controls = [...group.querySelectorAll<HTMLElement>(NEIGHBOURS)];
    const at = controls.indexOf(lost);
    const near = at < 0 ? undefined : (controls.slice(0, at).reverse().find(canFocus) ?? controls.slice(at + 1).find(canFocus));
    if (near) return near;
  }
  return layer;
}

/**
 * Keeps focus inside `layer` when the focused control disables itself (a button clicked into
 * uselessness: Redo after the last redo) or is blurred on purpose: browsers then move focus to the
 * body, out of the dialog's key handling and into the page's. It goes to `focusFallback`, shown as
 * keyboard focus only when the lost control had come by keyboard (so that after a click Space stays
 * with playback: `takesSpace` in src/engine/kernels/keyboard.ts).
 * A control removed from the layer is Radix's: its focus scope puts focus on the layer.
 */
export function useFocusStaysIn(layer: HTMLElement | null) {
  useEffect(() => {
    if (!layer) return;
    const stopWatching = watchFocusOrigin();
    const onFocusOut = (e: FocusEvent) => {
      const lost = e.target;
      // Focus that moves somewhere is not lost; nor is it when the window loses focus (the element stays active).
      if (e.relatedTarget || !(lost instanceof HTMLElement)) return;
      const visible = focusedByKeyboard(lost);
      queueMicrotask(() => {
        const now = document.activeElement;
        if ((now && now !== document.body) || !layer.isConnected || !layer.contains(lost)) return;
        // (FocusOptions.focusVisible is not in TypeScript's DOM types yet.)
        focusFallback(lost, layer).focus({ focusVisible: visible } as FocusOptions);
      });
    };
    layer.addEventListener('focusout', onFocusOut);
    return () => {
      layer.removeEventListener('focusout', onFocusOut);
      stopWatching();
    };
  }, [layer]);
}
