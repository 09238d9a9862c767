import { Tooltip as RadixTooltip } from 'radix-ui';
import type { ReactNode } from 'react';

export const TooltipProvider = RadixTooltip.Provider;

/** Shows `content` beside the (focusable) child on hover and focus; `disabled` renders the child alone. */
export function Tooltip({
  content,
  children,
  side = 'right',
  disabled,
}: {
  content: ReactNode;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
  disabled?: boolean;
}) {
  if (disabled) return <>{children}</>;
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content className="tooltip" side={side} sideOffset={8}>
          {content}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}

/**
 * Explains why a control is disabled: with a `reason`, the (disabled) child is wrapped in a
 * focusable span that carries the tooltip, since disabled buttons receive no pointer events.
 */
export function ReasonTooltip({
  reason,
  children,
  side = 'bottom',
}: {
  reason: string | null | undefined;
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
}) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip content={reason} side={side}>
      <span className="reason-tooltip" tabIndex={0} aria-label={reason}>
        {children}
      </span>
    </Tooltip>
  );
}
