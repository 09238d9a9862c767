import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, ROUTES } from '../../../contract';
import { api } from '../../api/instance';
import { signedIn } from '../../state/account';
import { session } from '../../state/session';
import { recordVerificationSent } from '../../state/verificationResend';
import { Checkbox } from '../../ui/Checkbox';
import { AuthForm, EmailField } from './AuthForm';
import { AuthHeading } from './AuthLayout';
import { registerError, registerFailure } from './formRules';
import { NewPasswordFields } from './NewPasswordFields';

export default function RegisterScreen() {
  const navigate = useNavigate();
  const { token, user } = useSnapshot(session);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Signed up (or already signed in): on to the next page; the form stays, busy, while its code loads.
  const leaving = token && user ? <Navigate to={user.isVerified === false ? ROUTES.verifyEmail : ROUTES.workspace} replace /> : null;

  const submit = async () => {
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
      {leaving}
      <AuthHeading title={MSG.registerHeading} subtitle={MSG.registerSubtitle} />
      <AuthForm
        error={error}
        busy={busy || leaving !== null}
        submitLabel={MSG.registerSubmit}
        busyLabel={MSG.registerSubmitBusy}
        onSubmit={() => void submit()}
      >
        <EmailField value={email} onChange={setEmail} autoFocus />
        <NewPasswordFields
          password={password}
          confirmation={confirmation}
          onPasswordChange={setPassword}
          onConfirmationChange={setConfirmation}
          label="Password"
          confirmLabel="Confirm password"
          placeholder="Create a password"
          confirmPlaceholder="Repeat the password"
        />
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
      </AuthForm>
      <p className="auth-alt">
        Already have an account? <Link to={ROUTES.login}>Log in</Link>
      </p>
    </>
  );
}
