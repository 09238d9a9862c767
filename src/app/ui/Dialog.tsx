import { Dialog as RadixDialog } from 'radix-ui';
import { useCallback, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert } from './Alert';
import { Button } from './Button';
import { IconClose } from './icons';
import { useFocusStaysIn, useInertPage } from './modal';
import { registerDialogFooter } from './toastClearance';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  /** The footer stays at the bottom of the scrolling dialog, keeping its actions in view (the moment dialog, the merge editor). */
  stickyFooter?: boolean;
  width?: number;
  /**
   * The element focus starts on (when it returns one), instead of Radix's first focusable one, which
   * is the Close button: a dialog whose keys matter (the moment dialog's Space) starts on its player.
   */
  initialFocus?: () => HTMLElement | null | undefined;
}

/**
 * A modal dialog with a title, optional description and a footer of actions. Keys pressed in it stay
 * in it: the page behind is inert while it is open, key events do not bubble out of it, and focus
 * that a control drops (by disabling itself) stays in it (`./modal`).
 */
export function Dialog({ open, onOpenChange, title, description, children, footer, stickyFooter, width = 480, initialFocus }: DialogProps) {
  const opener = useRef<HTMLElement | null>(null);
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  useInertPage(open);
  useFocusStaysIn(content);
  // Toasts keep clear of the footer's buttons while the dialog is open (Toaster).
  const unregisterFooter = useRef<(() => void) | null>(null);
  const footerRef = useCallback((el: HTMLDivElement | null) => {
    unregisterFooter.current?.();
    unregisterFooter.current = el ? registerDialogFooter(el) : null;
  }, []);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog__overlay" />
        <RadixDialog.Content
          ref={setContent}
          className="dialog__content"
          style={{ maxWidth: width }}
          // Radix gives focus back only to a Dialog.Trigger; these dialogs are opened by plain buttons,
          // so focus returns to whatever had it when the dialog opened (when it is still on the page).
          onOpenAutoFocus={(e) => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            const first = initialFocus?.();
            if (!first) return;
            e.preventDefault();
            first.focus();
          }}
          // The portal sits in the page's React tree, and in the document under body: without this a
          // key pressed in the dialog would also reach the page's handlers (React's, document's, window's).
          onKeyDown={(e) => e.stopPropagation()}
          onCloseAutoFocus={(e) => {
            const el = opener.current;
            opener.current = null;
            if (el?.isConnected && el !== document.body) {
              e.preventDefault();
              el.focus();
            }
          }}
          // Without a description Radix warns; an explicit undefined opts out cleanly.
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <div className="dialog__header">
            <RadixDialog.Title className="dialog__title">{title}</RadixDialog.Title>
            <RadixDialog.Close className="icon-btn dialog__close" aria-label="Close">
              <IconClose size={18} />
            </RadixDialog.Close>
          </div>
          {description && <RadixDialog.Description className="dialog__description">{description}</RadixDialog.Description>}
          {children && <div className="dialog__body">{children}</div>}
          {footer && (
            <div ref={footerRef} className={stickyFooter ? 'dialog__footer dialog__footer--sticky' : 'dialog__footer'}>
              {footer}
            </div>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

export interface ActionDialogProps extends Pick<DialogProps, 'title' | 'description' | 'width' | 'children'> {
  /** The button beside Cancel. */
  action: ReactNode;
  /** Cancel, the close button, Escape and a click outside all close. */
  onClose: () => void;
}

/** An open dialog whose footer is Cancel and one action. */
export function ActionDialog({ title, description, width, children, action, onClose }: ActionDialogProps) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={title}
      description={description}
      width={width}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Cancel
          </Button>
          {action}
        </>
      }
    >
      {children}
    </Dialog>
  );
}

export interface FormDialogProps extends Omit<ActionDialogProps, 'action' | 'children'> {
  /** The fields of the form. */
  children: ReactNode;
  submitLabel: ReactNode;
  submitDisabled?: boolean;
  busy: boolean;
  /** Shown above the fields. */
  error: string | null;
  /** Called on submit (the browser's own submission is prevented). */
  onSubmit: () => void;
}

/** An open dialog around one form: its error above the fields, Cancel and the submit button in the footer. */
export function FormDialog({
  title,
  description,
  width,
  children,
  submitLabel,
  submitDisabled,
  busy,
  error,
  onSubmit,
  onClose,
}: FormDialogProps) {
  const formId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <ActionDialog
      title={title}
      description={description}
      width={width}
      onClose={onClose}
      action={
        <Button type="submit" form={formId} busy={busy} disabled={submitDisabled}>
          {submitLabel}
        </Button>
      }
    >
      <form id={formId} className="stack" onSubmit={submit}>
        {error && <Alert tone="error">{error}</Alert>}
        {children}
      </form>
    </ActionDialog>
  );
}

/** A panel sliding in from the left edge, over the page (the temporary navigation drawer). */
export function Sheet({
  open,
  onOpenChange,
  title,
  width,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  width: number;
  children: ReactNode;
}) {
  // Modal like a dialog: the page behind takes no keys, not even the browser's undo.
  useInertPage(open);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="sheet__overlay" />
        <RadixDialog.Content
          className="sheet__content"
          style={{ width }}
          aria-describedby={undefined}
          onKeyDown={(e) => e.stopPropagation()}
        >
          <RadixDialog.Title className="visually-hidden">{title}</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
