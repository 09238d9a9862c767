import type { FormEvent, ReactNode } from 'react';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';

/**
 * The form of an auth screen: the error above the fields, the full-width submit button below them.
 * The browser's own validation is off; the screens check the fields with `formRules`.
 */
export function AuthForm({
  error,
  busy,
  submitLabel,
  busyLabel,
  onSubmit,
  children,
}: {
  error: string | null;
  busy: boolean;
  submitLabel: string;
  /** The submit button's text while the request runs. */
  busyLabel: string;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      {error && <Alert tone="error">{error}</Alert>}
      {children}
      <div className="auth-form__actions">
        <Button type="submit" size="lg" block busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </form>
  );
}

/** The email field of the auth forms. */
export function EmailField({ value, onChange, autoFocus }: { value: string; onChange: (value: string) => void; autoFocus?: boolean }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      placeholder="you@example.com"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      autoFocus={autoFocus}
    />
  );
}
