import { Popover as RadixPopover } from 'radix-ui';
import type { ReactNode } from 'react';

/**
 * A panel anchored to `trigger` (a focusable element) holding interactive content that a menu cannot
 * (a text filter, switches): focus moves inside, Escape and an outside click close it.
 */
export function Popover({
  open,
  onOpenChange,
  trigger,
  children,
  label,
  align = 'start',
  className,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger: ReactNode;
  children: ReactNode;
  label: string;
  align?: 'start' | 'center' | 'end';
  className?: string;
}) {
  return (
    <RadixPopover.Root open={open} onOpenChange={onOpenChange}>
      <RadixPopover.Trigger asChild>{trigger}</RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          className={['popover', className].filter(Boolean).join(' ')}
          align={align}
          sideOffset={8}
          collisionPadding={12}
          aria-label={label}
        >
          {children}
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}
