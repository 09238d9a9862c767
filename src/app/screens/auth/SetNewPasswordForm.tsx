import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MSG, passwordCriteria, ROUTES } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconCheck, IconLock } from '../../ui/icons';
import { PasswordField } from '../../ui/TextField';
import { AuthHeading } from './AuthLayout';
import { newPasswordError } from './formRules';
import { PasswordChecklist } from './PasswordChecklist';

export function SetNewPasswordForm({ code }: { code: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [visible, setVisible] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = newPasswordError(password, confirmation);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      await api.reset({ token: code, password });
      setDone(true);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <>
        <AuthHeading
          icon={<IconCheck size={24} />}
          title="Password updated"
          subtitle="Your password has been changed. Use it the next time you sign in."
        />
        <Button size="lg" block onClick={() => void navigate(ROUTES.root)}>
          {MSG.goToHomepage}
        </Button>
      </>
    );
  }

  return (
    <>
      <AuthHeading icon={<IconLock size={24} />} title="Set a new password" subtitle="Choose a new password for your account." />
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {error && <Alert tone="error">{error}</Alert>}
        <PasswordField
          label="New password"
          name="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          visible={visible}
          onVisibleChange={setVisible}
          autoFocus
        />
        <PasswordField
          label="Confirm new password"
          name="confirmPassword"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          visible={visible}
          hideToggle
        />
        <PasswordChecklist criteria={passwordCriteria(password, confirmation)} />
        <div className="auth-form__actions">
          <Button type="submit" size="lg" block busy={busy}>
            {busy ? 'Saving...' : 'Set new password'}
          </Button>
        </div>
      </form>
      <p className="auth-alt">
        Link not working? <Link to={ROUTES.resetPassword}>Request a new one</Link>
      </p>
    </>
  );
}
