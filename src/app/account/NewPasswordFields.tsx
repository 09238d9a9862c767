import { useState } from 'react';
import { passwordCriteria } from '../../contract';
import { PasswordField } from '../ui/TextField';
import { PasswordChecklist } from './PasswordChecklist';

/**
 * A new password, its confirmation and the checklist of the criteria. One toggle, on the first
 * field, shows or hides both.
 */
export function NewPasswordFields({
  password,
  confirmation,
  onPasswordChange,
  onConfirmationChange,
  label = 'New password',
  confirmLabel = 'Confirm new password',
  name = 'password',
  placeholder,
  confirmPlaceholder,
  autoFocus,
}: {
  password: string;
  confirmation: string;
  onPasswordChange: (value: string) => void;
  onConfirmationChange: (value: string) => void;
  label?: string;
  confirmLabel?: string;
  /** The form field name of the new password (the confirmation is always `confirmPassword`). */
  name?: string;
  placeholder?: string;
  confirmPlaceholder?: string;
  autoFocus?: boolean;
}) {
  const [visible, setVisible] = useState(false);
  return (
    <>
      <PasswordField
        label={label}
        name={name}
        autoComplete="new-password"
        placeholder={placeholder}
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
        visible={visible}
        onVisibleChange={setVisible}
        autoFocus={autoFocus}
      />
      <PasswordField
        label={confirmLabel}
        name="confirmPassword"
        autoComplete="new-password"
        placeholder={confirmPlaceholder}
        value={confirmation}
        onChange={(e) => onConfirmationChange(e.target.value)}
        visible={visible}
        hideToggle
      />
      <PasswordChecklist criteria={passwordCriteria(password, confirmation)} />
    </>
  );
}
