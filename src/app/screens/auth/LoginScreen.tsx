import { useState } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, ROUTES, safeNextPath } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { withNext } from '../../routing/nextPath';
import { signedIn } from '../../state/account';
import { session } from '../../state/session';
import { Alert } from '../../ui/Alert';
import { PasswordField } from '../../ui/TextField';
import { AuthForm, EmailField } from './AuthForm';
import { AuthHeading } from './AuthLayout';
import { loginError } from '../../account/formRules';

export default function LoginScreen() {
  const [params] = useSearchParams();
  const { token, user } = useSnapshot(session);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = params.get('next');

  // Signed in (now or already): unverified accounts verify first (and then go on where they were going),
  // others return there now. The form stays, busy, while the router fetches that page's code.
  const leaving =
    token && user ? <Navigate to={user.isVerified === false ? withNext(ROUTES.verifyEmail, next) : safeNextPath(next)} replace /> : null;

  const submit = async () => {
    const invalid = loginError(email, password);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    try {
      signedIn(await api.login({ email: email.trim(), password }));
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  const resetLink = email.trim() ? `${ROUTES.resetPassword}?email=${encodeURIComponent(email.trim())}` : ROUTES.resetPassword;
  const registerLink = withNext(ROUTES.register, next);

  return (
    <>
      {leaving}
      <AuthHeading title={MSG.loginHeading} subtitle={MSG.loginSubtitle} />
      <AuthForm
        error={error}
        busy={busy || leaving !== null}
        submitLabel={MSG.loginSubmit}
        busyLabel={MSG.loginSubmitBusy}
        onSubmit={() => void submit()}
      >
        {params.get('err') === 'exists' && !error && <Alert tone="warning">{MSG.emailExists}</Alert>}
        <EmailField value={email} onChange={setEmail} autoFocus={!email} />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="current-password"
          placeholder="Your password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          autoFocus={!!email}
          labelAside={
            <Link to={resetLink} className="auth-small-link">
              {MSG.forgotPasswordLink}
            </Link>
          }
        />
      </AuthForm>
      <p className="auth-alt">
        <Link to={registerLink}>{MSG.noAccountLink}</Link>
      </p>
    </>
  );
}
