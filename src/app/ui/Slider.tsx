import { Slider as RadixSlider } from 'radix-ui';

/**
 * A horizontal slider over [min, max] (volume, timeline zoom). `label` names it for assistive
 * technology; `valueText` is what it announces (e.g. '250 %').
 */
export function Slider({
  value,
  onValueChange,
  onValueCommit,
  min,
  max,
  step = 1,
  label,
  valueText,
  disabled,
  className,
}: {
  value: number;
  onValueChange: (value: number) => void;
  onValueCommit?: (value: number) => void;
  min: number;
  max: number;
  step?: number;
  label: string;
  valueText?: string;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <RadixSlider.Root
      className={`slider${className ? ` ${className}` : ''}`}
      value={[value]}
      min={min}
      max={max}
      step={step}
      disabled={disabled}
      onValueChange={(v) => onValueChange(v[0] ?? min)}
      onValueCommit={onValueCommit ? (v) => onValueCommit(v[0] ?? min) : undefined}
    >
      <RadixSlider.Track className="slider__track">
        <RadixSlider.Range className="slider__range" />
      </RadixSlider.Track>
      <RadixSlider.Thumb className="slider__thumb" aria-label={label} aria-valuetext={valueText} />
    </RadixSlider.Root>
  );
}
