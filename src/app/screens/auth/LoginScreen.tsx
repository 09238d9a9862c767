import { useState, type FormEvent } from 'react';
import { Link, Navigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, ROUTES, safeNextPath } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { signedIn } from '../../state/account';
import { session } from '../../state/session';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PasswordField, TextField } from '../../ui/TextField';
import { AuthHeading } from './AuthLayout';
import { loginError } from './formRules';

export default function LoginScreen() {
  const [params] = useSearchParams();
  const { token, user } = useSnapshot(session);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = params.get('next');

  // Signed in (now or already): unverified accounts verify first, others return where they were going.
  if (token && user) return <Navigate to={user.isVerified === false ? ROUTES.verifyEmail : safeNextPath(next)} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
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

  return (
    <>
      <AuthHeading title={MSG.loginHeading} subtitle={MSG.loginSubtitle} />
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {params.get('err') === 'exists' && !error && <Alert tone="warning">{MSG.emailExists}</Alert>}
        {error && <Alert tone="error">{error}</Alert>}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus={!email}
        />
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
        <div className="auth-form__actions">
          <Button type="submit" size="lg" block busy={busy}>
            {busy ? MSG.loginSubmitBusy : MSG.loginSubmit}
          </Button>
        </div>
      </form>
      <p className="auth-alt">
        <Link to={ROUTES.register}>{MSG.noAccountLink}</Link>
      </p>
    </>
  );
}
