import { useEffect, useState } from 'react';
import { Navigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, RESEND_WAIT_SECONDS, ROUTES, safeNextPath } from '../../../contract';
import { refreshAccount } from '../../state/account';
import { session } from '../../state/session';
import { ConnectionProblem } from '../../routing/guards';
import { withNext } from '../../routing/nextPath';
import { useLogout } from '../../shell/useLogout';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { PageSpinner } from '../../ui/Spinner';
import { CheckEmailHeading } from './AuthLayout';
import { useVerificationResend } from '../../account/useVerificationResend';

/** How often the screen asks whether the link was opened (in another tab or on another device). */
const POLL_MS = 5000;

export default function VerifyEmailScreen() {
  const { token, user, status } = useSnapshot(session);
  // Verified: on to where sign-in was going (a safe `next`), else to /.
  const next = useSearchParams()[0].get('next');
  if (!token) return <Navigate to={withNext(ROUTES.login, next)} replace />;
  if (!user) return status === 'error' ? <ConnectionProblem /> : <PageSpinner />;
  if (user.isVerified) return <Navigate to={safeNextPath(next, ROUTES.root)} replace />;
  return <VerifyEmailPanel email={user.email} />;
}

function VerifyEmailPanel({ email }: { email: string }) {
  const onLogout = useLogout();
  const [error, setError] = useState<string | null>(null);
  const { secondsLeft, busy, resend } = useVerificationResend(email, { onStart: () => setError(null), onError: setError });

  useEffect(() => {
    const poll = () => {
      if (document.visibilityState === 'visible') void refreshAccount();
    };
    const timer = setInterval(poll, POLL_MS);
    document.addEventListener('visibilitychange', poll);
    window.addEventListener('focus', poll);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', poll);
      window.removeEventListener('focus', poll);
    };
  }, []);

  const waiting = secondsLeft > 0;
  return (
    <>
      <CheckEmailHeading>
        We sent a verification link to <strong className="auth-email">{email}</strong>. Open it to activate your account.
      </CheckEmailHeading>
      <div className="stack">
        {error && <Alert tone="error">{error}</Alert>}
        <p className="auth-note" aria-live="polite">
          {waiting
            ? `The email can take up to ${RESEND_WAIT_SECONDS} seconds to arrive. You can send another in ${secondsLeft} s.`
            : `No email after ${RESEND_WAIT_SECONDS} seconds? Check your spam folder or send another one.`}
        </p>
        <Button variant="secondary" size="lg" block disabled={waiting} busy={busy} onClick={() => void resend()}>
          {MSG.resendVerification}
        </Button>
        <p className="auth-alt">
          <Button variant="link" onClick={onLogout}>
            {MSG.notYou(email)}
          </Button>
        </p>
      </div>
    </>
  );
}
