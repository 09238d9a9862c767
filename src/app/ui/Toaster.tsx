import { Portal, Toast } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { dismissToast, toasts } from '../state/toasts';
import { IconAlert, IconCheck, IconClose, IconInfo } from './icons';
import { subscribeDialogFooters, toastLift, topDialogFooter, type Rect } from './toastClearance';

const ICONS = { info: IconInfo, success: IconCheck, error: IconAlert } as const;

/**
 * Lifts the toasts' viewport above the footer of the dialog on top while they would cover it
 * (`toastClearance.ts`). Measured when the toasts or the footer change size (a ResizeObserver runs
 * before the frame is painted: a new toast never shows over the buttons first), the window resizes
 * or anything scrolls; set on the element, not through React state.
 */
function useToastLift(viewport: HTMLElement | null) {
  useEffect(() => {
    if (!viewport) return;
    let lift = 0;
    const measure = () => {
      let toastsRect: Rect = { left: 0, top: 0, right: 0, bottom: 0 };
      for (const el of viewport.querySelectorAll('.toast')) {
        const r = el.getBoundingClientRect();
        // where the toasts would be unlifted
        const shifted = { left: r.left, top: r.top + lift, right: r.right, bottom: r.bottom + lift };
        toastsRect =
          toastsRect.bottom <= toastsRect.top
            ? shifted
            : {
                left: Math.min(toastsRect.left, shifted.left),
                top: Math.min(toastsRect.top, shifted.top),
                right: Math.max(toastsRect.right, shifted.right),
                bottom: Math.max(toastsRect.bottom, shifted.bottom),
              };
      }
      const footer = topDialogFooter()?.getBoundingClientRect() ?? null;
      const next = toastLift(toastsRect, footer, window.innerHeight);
      if (next === lift) return;
      lift = next;
      viewport.style.bottom = next ? `${next}px` : '';
    };
    const sizes = new ResizeObserver(measure);
    sizes.observe(viewport);
    let footer: HTMLElement | null = null;
    const onFooters = () => {
      if (footer) sizes.unobserve(footer);
      footer = topDialogFooter();
      if (footer) sizes.observe(footer);
      measure();
    };
    onFooters();
    const unsubscribe = subscribeDialogFooters(onFooters);
    // Once a toast has slid into place (its entry moves it by a transform, which no size change tells).
    viewport.addEventListener('animationend', measure);
    window.addEventListener('resize', measure);
    document.addEventListener('scroll', measure, true);
    return () => {
      unsubscribe();
      sizes.disconnect();
      viewport.removeEventListener('animationend', measure);
      window.removeEventListener('resize', measure);
      document.removeEventListener('scroll', measure, true);
      viewport.style.bottom = '';
    };
  }, [viewport]);
}

/** Renders the toast store; Radix handles timing, pausing on hover and swipe to dismiss. */
export function Toaster() {
  const { items } = useSnapshot(toasts);
  const [viewport, setViewport] = useState<HTMLOListElement | null>(null);
  useToastLift(viewport);
  return (
    <Toast.Provider swipeDirection="right" label="Notification">
      {items.map((t) => {
        const Icon = ICONS[t.tone];
        return (
          <Toast.Root
            key={t.id}
            className={`toast toast--${t.tone}`}
            duration={t.durationMs ?? Infinity}
            type={t.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) dismissToast(t.id);
            }}
          >
            <Icon size={18} className="toast__icon" />
            <div className="toast__body">
              {t.title && <Toast.Title className="toast__title">{t.title}</Toast.Title>}
              <Toast.Description className="toast__message">{t.message}</Toast.Description>
            </div>
            {t.durationMs !== null && (
              <Toast.Close className="icon-btn toast__close" aria-label="Dismiss">
                <IconClose size={16} />
              </Toast.Close>
            )}
            {t.progress !== undefined && (
              <div
                className="toast__progress"
                role="progressbar"
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(t.progress * 100)}
              >
                <div className="toast__progress-bar" style={{ width: `${t.progress * 100}%` }} />
              </div>
            )}
          </Toast.Root>
        );
      })}
      {/* Outside the page's root, which is inert while a dialog is open: toasts stay live over dialogs. */}
      <Portal.Root>
        <Toast.Viewport ref={setViewport} className="toast-viewport" />
      </Portal.Root>
    </Toast.Provider>
  );
}
