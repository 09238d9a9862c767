import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG, RESEND_WAIT_SECONDS, ROUTES } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { canResend, waitUntil } from '../../hooks/countdown';
import { useCountdown } from '../../hooks/useCountdown';
import { refreshAccount } from '../../state/account';
import { session } from '../../state/session';
import { showToast } from '../../state/toasts';
import { lastVerificationSentAt, recordVerificationSent } from '../../state/verificationResend';
import { ConnectionProblem } from '../../routing/guards';
import { useLogout } from '../../shell/useLogout';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconMail } from '../../ui/icons';
import { PageSpinner } from '../../ui/Spinner';
import { AuthHeading } from './AuthLayout';

/** How often the screen asks whether the link was opened (in another tab or on another device). */
const POLL_MS = 5000;

export default function VerifyEmailScreen() {
  const { token, user, status } = useSnapshot(session);
  if (!token) return <Navigate to={ROUTES.login} replace />;
  if (!user) return status === 'error' ? <ConnectionProblem /> : <PageSpinner />;
  if (user.isVerified) return <Navigate to={ROUTES.root} replace />;
  return <VerifyEmailPanel email={user.email} />;
}

function VerifyEmailPanel({ email }: { email: string }) {
  const onLogout = useLogout();
  const [sentAt, setSentAt] = useState(() => lastVerificationSentAt(email));
  const [waitEndsAt, setWaitEndsAt] = useState(() => (sentAt ? waitUntil(sentAt) : null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const secondsLeft = useCountdown(waitEndsAt);

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

  const resend = async () => {
    const now = Date.now();
    if (!canResend(sentAt, now)) return;
    setBusy(true);
    setError(null);
    try {
      const { retryAfterSeconds } = await api.resendVerification({ email });
      recordVerificationSent(email, now);
      setSentAt(now);
      setWaitEndsAt(waitUntil(now, retryAfterSeconds));
      showToast(`Verification email sent to ${email}`, { tone: 'success' });
    } catch (e) {
      if (isApiError(e) && e.code === 'rate_limited') {
        setWaitEndsAt(Date.now() + (e.retryAfterSeconds ?? RESEND_WAIT_SECONDS) * 1000);
      } else {
        setError(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const waiting = secondsLeft > 0;
  return (
    <>
      <AuthHeading
        icon={<IconMail size={24} />}
        title={MSG.checkYourEmail}
        subtitle={
          <>
            We sent a verification link to <strong className="auth-email">{email}</strong>. Open it to activate your account.
          </>
        }
      />
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
