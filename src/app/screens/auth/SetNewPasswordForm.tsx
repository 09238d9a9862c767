import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MSG, ROUTES } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { Button } from '../../ui/Button';
import { IconCheck, IconLock } from '../../ui/icons';
import { AuthForm } from './AuthForm';
import { AuthHeading } from './AuthLayout';
import { newPasswordError } from './formRules';
import { NewPasswordFields } from './NewPasswordFields';

export function SetNewPasswordForm({ code }: { code: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async () => {
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
      <AuthForm error={error} busy={busy} submitLabel="Set new password" busyLabel="Saving..." onSubmit={() => void submit()}>
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPasswordChange={setPassword}
          onConfirmationChange={setConfirmation}
          autoFocus
        />
      </AuthForm>
      <p className="auth-alt">
        Link not working? <Link to={ROUTES.resetPassword}>Request a new one</Link>
      </p>
    </>
  );
}
