import { useEffect } from 'react';

/**
 * Escape clears a selection while there is one (`active`): unless a dialog or menu is open (Escape
 * is theirs), a field is being typed in, or something else already took the key.
 */
export function useEscapeToClear(active: boolean, clear: () => void) {
  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      const target = e.target instanceof Element ? e.target : null;
      if (target?.closest('input, textarea, select, [contenteditable="true"]')) return;
      if (document.querySelector('[role="dialog"], [role="menu"], [role="listbox"]')) return;
      clear();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, clear]);
}
