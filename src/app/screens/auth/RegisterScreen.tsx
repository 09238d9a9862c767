import { useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, ROUTES, safeNextPath } from '../../../contract';
import { api } from '../../api/instance';
import { withNext } from '../../routing/nextPath';
import { signedIn } from '../../state/account';
import { session } from '../../state/session';
import { recordVerificationSent } from '../../state/verificationResend';
import { Checkbox } from '../../ui/Checkbox';
import { AuthForm, EmailField } from './AuthForm';
import { AuthHeading } from './AuthLayout';
import { registerError, registerFailure } from '../../account/formRules';
import { NewPasswordFields } from '../../account/NewPasswordFields';

export default function RegisterScreen() {
  const navigate = useNavigate();
  // Where the visitor was going when sign-in sent them here: on to it once verified.
  const next = useSearchParams()[0].get('next');
  const { token, user } = useSnapshot(session);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [acceptedTerms, setAcceptedTerms] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // Signed up (or already signed in): on to the next page; the form stays, busy, while its code loads.
  const leaving =
    token && user ? (
      <Navigate to={user.isVerified === false ? withNext(ROUTES.verifyEmail, next) : safeNextPath(next, ROUTES.workspace)} replace />
    ) : null;

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
      if (failure.kind === 'exists') void navigate(withNext(ROUTES.login, next, { email: address, err: 'exists' }));
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
        Already have an account? <Link to={withNext(ROUTES.login, next)}>Log in</Link>
      </p>
    </>
  );
}
