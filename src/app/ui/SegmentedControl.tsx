import { ToggleGroup } from 'radix-ui';
import type { ReactNode } from 'react';

export interface SegmentOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
  /** A longer name, shown on hover. */
  title?: string;
}

/** A single-choice toggle (tabs-like); always keeps one option selected. */
export function SegmentedControl<T extends string>({
  value,
  onValueChange,
  options,
  label,
}: {
  value: T;
  onValueChange: (value: T) => void;
  options: readonly SegmentOption<T>[];
  label: string;
}) {
  return (
    <ToggleGroup.Root
      type="single"
      className="segmented"
      value={value}
      aria-label={label}
      onValueChange={(v) => {
        if (v) onValueChange(v as T);
      }}
    >
      {options.map((o) => (
        <ToggleGroup.Item key={o.value} value={o.value} className="segmented__item" disabled={o.disabled} title={o.title}>
          {o.label}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  );
}
