import { useState, type FormEvent } from 'react';
import { MSG } from '../../../contract';
import { api } from '../../api/instance';
import { setUser } from '../../state/session';
import { showToast } from '../../state/toasts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PasswordField } from '../../ui/TextField';
import { changePasswordError } from '../../account/formRules';
import { NewPasswordFields } from '../../account/NewPasswordFields';

export function PasswordTab() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = changePasswordError(current, next, confirmation);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      // The answer carries a fresh token (stored by the client): other sessions may have been ended.
      setUser(await api.changePassword({ oldPassword: current, newPassword: next }));
      setCurrent('');
      setNext('');
      setConfirmation('');
      showToast(MSG.passwordChanged, { tone: 'success' });
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : MSG.changePasswordUnknown);
      showToast(MSG.changePasswordFailedToast, { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card settings-card" aria-labelledby="password-title">
      <div className="settings-card__intro">
        <h2 id="password-title" className="card__title">
          Change password
        </h2>
        <p className="muted">Use at least 8 characters. You stay signed in on this device.</p>
      </div>
      <form className="settings-form" onSubmit={(e) => void submit(e)} noValidate>
        {error && <Alert tone="error">{error}</Alert>}
        <PasswordField
          label="Current password"
          name="currentPassword"
          autoComplete="current-password"
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <NewPasswordFields
          password={next}
          confirmation={confirmation}
          onPasswordChange={setNext}
          onConfirmationChange={setConfirmation}
          name="newPassword"
        />
        <div>
          <Button type="submit" busy={busy}>
            {busy ? 'Changing password...' : 'Change password'}
          </Button>
        </div>
      </form>
    </section>
  );
}
