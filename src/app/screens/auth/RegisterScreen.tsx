import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, passwordCriteria, ROUTES } from '../../../contract';
import { api } from '../../api/instance';
import { signedIn } from '../../state/account';
import { session } from '../../state/session';
import { recordVerificationSent } from '../../state/verificationResend';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { PasswordField, TextField } from '../../ui/TextField';
import { AuthHeading } from './AuthLayout';
import { registerError, registerFailure } from './formRules';
import { PasswordChecklist } from './PasswordChecklist';

export default function RegisterScreen() {
  const navigate = useNavigate();
  const { token, user } = useSnapshot(session);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [showPasswords, setShowPasswords] = useState(false);
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const criteria = passwordCriteria(password, confirmation);

  if (token && user) return <Navigate to={user.isVerified === false ? ROUTES.verifyEmail : ROUTES.workspace} replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = registerError(email, password, confirmation, acceptedTerms);
    setError(invalid);
    if (invalid) return;
    setBusy(true);
    const address = email.trim();
    try {
      const created = await api.register({ email: address, password });
      recordVerificationSent(address);
      signedIn(created);
    } catch (e) {
      setBusy(false);
      const failure = registerFailure(e);
      if (failure.kind === 'exists') void navigate(`${ROUTES.login}?email=${encodeURIComponent(address)}&err=exists`);
      else setError(failure.message);
    }
  };

  return (
    <>
      <AuthHeading title={MSG.registerHeading} subtitle={MSG.registerSubtitle} />
      <form className="auth-form" onSubmit={(e) => void submit(e)} noValidate>
        {error && <Alert tone="error">{error}</Alert>}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          autoFocus
        />
        <PasswordField
          label="Password"
          name="password"
          autoComplete="new-password"
          placeholder="Create a password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          visible={showPasswords}
          onVisibleChange={setShowPasswords}
        />
        <PasswordField
          label="Confirm password"
          name="confirmPassword"
          autoComplete="new-password"
          placeholder="Repeat the password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          visible={showPasswords}
          hideToggle
        />
        <PasswordChecklist criteria={criteria} />
        <Checkbox
          name="acceptTerms"
          checked={acceptedTerms}
          onCheckedChange={setAcceptedTerms}
          invalid={error === MSG.mustAcceptTerms}
          label={
            <>
              I accept the{' '}
              <Link to={ROUTES.terms} target="_blank" rel="noopener">
                Terms of Service
              </Link>{' '}
              and the{' '}
              <Link to={ROUTES.privacy} target="_blank" rel="noopener">
                Privacy Policy
              </Link>
              .
            </>
          }
        />
        <div className="auth-form__actions">
          <Button type="submit" size="lg" block busy={busy}>
            {busy ? MSG.registerSubmitBusy : MSG.registerSubmit}
          </Button>
        </div>
      </form>
      <p className="auth-alt">
        Already have an account? <Link to={ROUTES.login}>Log in</Link>
      </p>
    </>
  );
}
