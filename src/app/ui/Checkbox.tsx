import { Checkbox as RadixCheckbox } from 'radix-ui';
import { useId, type ReactNode } from 'react';
import { IconCheck } from './icons';

export interface CheckboxProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  /** May contain links; clicking them does not toggle the box. */
  label: ReactNode;
  invalid?: boolean;
  name?: string;
}

export function Checkbox({ checked, onCheckedChange, label, invalid, name }: CheckboxProps) {
  const id = useId();
  return (
    <div className="checkbox">
      <RadixCheckbox.Root
        id={id}
        name={name}
        className="checkbox__box"
        checked={checked}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        aria-invalid={invalid || undefined}
      >
        <RadixCheckbox.Indicator className="checkbox__indicator">
          <IconCheck size={14} strokeWidth={3} />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <label className="checkbox__label" htmlFor={id}>
        {label}
      </label>
    </div>
  );
}

/** A checkbox without a visible label (selecting a card or a row); `label` names it for assistive tech. */
export function CheckboxControl({
  checked,
  onCheckedChange,
  label,
  className,
  disabled,
}: {
  checked: boolean | 'indeterminate';
  onCheckedChange: (checked: boolean) => void;
  label: string;
  className?: string;
  disabled?: boolean;
}) {
  return (
    <RadixCheckbox.Root
      className={['checkbox__box', className].filter(Boolean).join(' ')}
      checked={checked}
      disabled={disabled}
      aria-label={label}
      onCheckedChange={(value) => onCheckedChange(value === true)}
      onClick={(e) => e.stopPropagation()}
    >
      <RadixCheckbox.Indicator className="checkbox__indicator">
        {checked === 'indeterminate' ? <span className="checkbox__dash" /> : <IconCheck size={14} strokeWidth={3} />}
      </RadixCheckbox.Indicator>
    </RadixCheckbox.Root>
  );
}
