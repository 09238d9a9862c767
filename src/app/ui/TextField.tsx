import { useId, useState, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { IconEye, IconEyeOff } from './icons';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size'> {
  label: string;
  /** A control beside the label, such as a 'Forgot password' link. */
  labelAside?: ReactNode;
  hint?: ReactNode;
  /** Marks the field invalid and describes why. */
  error?: string | null;
  /** A control at the end of the input (icon button). */
  trailing?: ReactNode;
}

export function TextField({ label, labelAside, hint, error, trailing, id, className, ...input }: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={['field', className].filter(Boolean).join(' ')}>
      <div className="field__label-row">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
        {labelAside}
      </div>
      <div className={['field__control', error ? 'field__control--invalid' : '', trailing ? 'field__control--trailing' : ''].join(' ')}>
        <input id={inputId} className="field__input" aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
        {trailing}
      </div>
      {hint && (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      )}
      {error && (
        <div id={errorId} className="field__error">
          {error}
        </div>
      )}
    </div>
  );
}

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'trailing'> {
  /** Controlled visibility, for forms where one toggle reveals several fields. */
  visible?: boolean;
  onVisibleChange?: (visible: boolean) => void;
  /** Hide this field's own toggle (another field's toggle drives it). */
  hideToggle?: boolean;
}

export function PasswordField({ visible, onVisibleChange, hideToggle, ...props }: PasswordFieldProps) {
  const [ownVisible, setOwnVisible] = useState(false);
  const shown = visible ?? ownVisible;
  // A controlled toggle drives every password field of its form, so its label speaks of them all.
  const what = visible === undefined ? 'password' : 'passwords';
  const toggle = () => {
    setOwnVisible(!shown);
    onVisibleChange?.(!shown);
  };
  return (
    <TextField
      {...props}
      type={shown ? 'text' : 'password'}
      trailing={
        hideToggle ? undefined : (
          <button
            type="button"
            className="field__toggle"
            onClick={toggle}
            aria-label={`${shown ? 'Hide' : 'Show'} ${what}`}
            aria-pressed={shown}
            title={`${shown ? 'Hide' : 'Show'} ${what}`}
          >
            {shown ? <IconEyeOff size={18} /> : <IconEye size={18} />}
          </button>
        )
      }
    />
  );
}

export function TextArea({ label, id, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string }) {
  const autoId = useId();
  const inputId = id ?? autoId;
  return (
    <div className="field">
      <div className="field__label-row">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
      </div>
      <div className="field__control">
        <textarea id={inputId} className="field__input field__input--multiline" {...rest} />
      </div>
    </div>
  );
}
