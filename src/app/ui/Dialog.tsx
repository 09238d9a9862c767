import { Dialog as RadixDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import { IconClose } from './icons';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  width?: number;
}

/** A modal dialog with a title, optional description and a footer of actions. */
export function Dialog({ open, onOpenChange, title, description, children, footer, width = 480 }: DialogProps) {
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="dialog__overlay" />
        <RadixDialog.Content
          className="dialog__content"
          style={{ maxWidth: width }}
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
          {footer && <div className="dialog__footer">{footer}</div>}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
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
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="sheet__overlay" />
        <RadixDialog.Content className="sheet__content" style={{ width }} aria-describedby={undefined}>
          <RadixDialog.Title className="visually-hidden">{title}</RadixDialog.Title>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
