import { useEffect, useRef, useState } from 'react';
import { parseTimecode } from './momentFormat';
import { formatClock, formatPreciseTimecode } from '../ui/format';

/**
 * A time code field (spec section 5): shows `value` as HH:MM:SS (with its fraction when `precise`),
 * becomes editable on focus, and on Enter applies a valid time code clamped to 0..max. Anything that
 * is not a time code is rejected and the field reverts; Escape cancels. With `commitOnBlur`, leaving
 * the field applies it as Enter would (the trim dialog's boundaries); otherwise leaving cancels.
 */
export function TimeInput({
  value,
  max,
  onCommit,
  label,
  precise = false,
  commitOnBlur = false,
  disabled,
  className,
}: {
  value: number;
  max: number;
  onCommit: (seconds: number) => void;
  label: string;
  precise?: boolean;
  commitOnBlur?: boolean;
  disabled?: boolean;
  className?: string;
}) {
  const format = precise ? formatPreciseTimecode : formatClock;
  const shown = format(value);
  const [draft, setDraft] = useState<string | null>(null);
  const [rejected, setRejected] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Enter and Escape end the edit and blur the field; the blur that follows must not act again.
  const settled = useRef(false);

  const apply = () => {
    settled.current = true;
    // Passing through a field (Tab, Enter) without typing changes nothing: its shown value is
    // rounded, and committing it would move the value (a moment's boundary) by that rounding.
    const unchanged = draft === null || draft.trim() === shown;
    const parsed = unchanged ? null : parseTimecode(draft);
    setDraft(null);
    if (unchanged) {
      setRejected(false);
      return;
    }
    if (parsed === null) {
      setRejected(draft !== null && draft.trim() !== shown);
      return;
    }
    setRejected(false);
    onCommit(Math.min(Math.max(0, parsed), Math.max(0, max)));
  };

  // Escape is the field's while it is edited: a dialog around it would otherwise close on it. Radix
  // listens on the document in the capture phase, so the window's capture phase is the one before it.
  const editing = draft !== null;
  useEffect(() => {
    if (!editing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.target !== input.current) return;
      e.preventDefault();
      settled.current = true;
      setDraft(null);
      setRejected(false);
      input.current?.blur();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [editing]);

  return (
    <input
      ref={input}
      className={['time-input', precise && 'time-input--precise', rejected && 'time-input--rejected', className].filter(Boolean).join(' ')}
      type="text"
      inputMode="decimal"
      spellCheck={false}
      autoComplete="off"
      aria-label={label}
      aria-invalid={rejected || undefined}
      disabled={disabled}
      value={draft ?? shown}
      onFocus={(e) => {
        settled.current = false;
        setDraft(shown);
        e.currentTarget.select();
      }}
      onChange={(e) => setDraft(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          e.preventDefault();
          apply();
          e.currentTarget.blur();
        }
      }}
      onBlur={() => {
        if (settled.current) return;
        if (commitOnBlur) apply();
        else setDraft(null);
      }}
    />
  );
}

type Boundary = 'startTime' | 'endTime';

/**
 * A range's Start and End as two labelled, precise time code fields (the trim fields under the
 * moment's timeline and in the merge's Trim dialog), each applied on Enter or on leaving it.
 */
export function BoundaryFields({
  range,
  max,
  onCommit,
}: {
  range: Record<Boundary, number>;
  max: number;
  onCommit: (boundary: Boundary, seconds: number) => void;
}) {
  return (['startTime', 'endTime'] as const).map((boundary) => {
    const label = boundary === 'startTime' ? 'Start' : 'End';
    return (
      <label key={boundary} className="trim-view__field">
        <span className="trim-view__label">{label}</span>
        <TimeInput
          value={range[boundary]}
          max={max}
          precise
          commitOnBlur
          label={label}
          onCommit={(seconds) => onCommit(boundary, seconds)}
        />
      </label>
    );
  });
}
