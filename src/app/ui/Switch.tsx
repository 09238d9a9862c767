import { Switch as RadixSwitch } from 'radix-ui';
import { useId } from 'react';

/** An on/off switch with its label (e.g. monthly/yearly billing, UI preferences). */
export function Switch({
  checked,
  onCheckedChange,
  label,
  disabled,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="switch">
      <RadixSwitch.Root id={id} className="switch__root" checked={checked} onCheckedChange={onCheckedChange} disabled={disabled}>
        <RadixSwitch.Thumb className="switch__thumb" />
      </RadixSwitch.Root>
      <label htmlFor={id} className="switch__label">
        {label}
      </label>
    </div>
  );
}
