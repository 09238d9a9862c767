import { Portal, Toast } from 'radix-ui';
import { useSnapshot } from 'valtio';
import { dismissToast, toasts } from '../state/toasts';
import { IconAlert, IconCheck, IconClose, IconInfo } from './icons';

const ICONS = { info: IconInfo, success: IconCheck, error: IconAlert } as const;

/** Renders the toast store; Radix handles timing, pausing on hover and swipe to dismiss. */
export function Toaster() {
  const { items } = useSnapshot(toasts);
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
        <Toast.Viewport className="toast-viewport" />
      </Portal.Root>
    </Toast.Provider>
  );
}
