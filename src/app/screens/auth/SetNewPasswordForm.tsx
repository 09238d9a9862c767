import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MSG, ROUTES } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { Button } from '../../ui/Button';
import { IconAlert, IconCheck, IconLock } from '../../ui/icons';
import { PageSpinner } from '../../ui/Spinner';
import { AuthForm } from './AuthForm';
import { AuthHeading } from './AuthLayout';
import { newPasswordError } from '../../account/formRules';
import { NewPasswordFields } from '../../account/NewPasswordFields';

export function SetNewPasswordForm({ code }: { code: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  // A used, replaced or expired link says so when opened, not after the form is filled in. The check
  // leaves the link as it is; if it cannot be made (offline), the form shows and its submit decides.
  const check = useQuery({
    queryKey: ['resetCheck', code],
    queryFn: () => api.resetCheck({ token: code }),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const refused = check.error && isApiError(check.error) && check.error.code === 'code_invalid' ? check.error.message : null;

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

  if (check.isPending) return <PageSpinner label="Checking your link" />;
  if (refused) {
    return (
      <>
        <AuthHeading icon={<IconAlert size={24} />} title="This link can't be used" subtitle={refused} />
        <Button asChild size="lg" block>
          <Link to={ROUTES.resetPassword}>Request a new link</Link>
        </Button>
        <p className="auth-alt">
          Remembered it? <Link to={ROUTES.login}>Sign in</Link>
        </p>
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
