import { useId } from 'react';
import { IconChevronDown } from './icons';

export interface SelectOption<T extends string> {
  value: T;
  label: string;
}

/**
 * A compact native select (sort order, status filter): native so keyboard, screen readers and
 * mobile pickers behave as users expect; the label may be visually hidden.
 */
export function Select<T extends string>({
  label,
  value,
  options,
  onValueChange,
  hideLabel,
}: {
  label: string;
  value: T;
  options: readonly SelectOption<T>[];
  onValueChange: (value: T) => void;
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <div className="select">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : 'select__label'}>
        {label}
      </label>
      <div className="select__control">
        <select id={id} className="select__input" value={value} onChange={(e) => onValueChange(e.target.value as T)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        <IconChevronDown size={16} className="select__chevron" />
      </div>
    </div>
  );
}
