import { DropdownMenu } from 'radix-ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { IconCheck } from './icons';
import { Tooltip } from './Tooltip';

/** A dropdown menu opened by `trigger` (which must be a focusable element, e.g. a button). */
export function Menu({
  trigger,
  children,
  align = 'end',
  label,
  onOpenChange,
}: {
  trigger: ReactNode;
  children: ReactNode;
  align?: 'start' | 'end';
  label?: string;
  /** Told when the menu opens or closes (a menu whose choices start afresh each time it opens). */
  onOpenChange?: (open: boolean) => void;
}) {
  return (
    <DropdownMenu.Root modal={false} onOpenChange={onOpenChange}>
      <DropdownMenu.Trigger asChild>{trigger}</DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" align={align} sideOffset={8} aria-label={label}>
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

export function MenuHeader({ children }: { children: ReactNode }) {
  return <DropdownMenu.Label className="menu__header">{children}</DropdownMenu.Label>;
}

export function MenuSeparator() {
  return <DropdownMenu.Separator className="menu__separator" />;
}

export function MenuItem({
  icon,
  children,
  onSelect,
  tone,
  disabled,
  hint,
}: {
  icon?: ReactNode;
  children: ReactNode;
  onSelect: () => void;
  tone?: 'danger';
  disabled?: boolean;
  /** Why the item is disabled; shown as its tooltip. */
  hint?: string;
}) {
  const item = (
    <DropdownMenu.Item className={`menu__item${tone ? ` menu__item--${tone}` : ''}`} onSelect={onSelect} disabled={disabled}>
      {icon && <span className="menu__icon">{icon}</span>}
      {children}
    </DropdownMenu.Item>
  );
  return hint ? (
    <Tooltip content={hint} side="left">
      {item}
    </Tooltip>
  ) : (
    item
  );
}

/** A menu entry that toggles (e.g. a table column); the menu stays open so several can be changed. */
export function MenuCheckboxItem({
  checked,
  onCheckedChange,
  children,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <DropdownMenu.CheckboxItem
      className="menu__item menu__item--check"
      checked={checked}
      onCheckedChange={onCheckedChange}
      onSelect={(e) => e.preventDefault()}
    >
      <span className="menu__check">
        <DropdownMenu.ItemIndicator>
          <IconCheck size={14} strokeWidth={3} />
        </DropdownMenu.ItemIndicator>
      </span>
      {children}
    </DropdownMenu.CheckboxItem>
  );
}

/** A menu entry that navigates inside the app, or opens `href` in a new tab when `external`. */
export function MenuLink({ icon, children, to, external }: { icon?: ReactNode; children: ReactNode; to: string; external?: boolean }) {
  return (
    <DropdownMenu.Item className="menu__item" asChild>
      {external ? (
        <a href={to} target="_blank" rel="noopener noreferrer">
          {icon && <span className="menu__icon">{icon}</span>}
          {children}
        </a>
      ) : (
        <Link to={to}>
          {icon && <span className="menu__icon">{icon}</span>}
          {children}
        </Link>
      )}
    </DropdownMenu.Item>
  );
}
