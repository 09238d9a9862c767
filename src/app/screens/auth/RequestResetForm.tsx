import { useState } from 'react';
import { Link } from 'react-router-dom';
import { MSG, ROUTES } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { waitUntil } from '../../hooks/countdown';
import { useCountdown } from '../../hooks/useCountdown';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconArrowLeft, IconLock } from '../../ui/icons';
import { AuthForm, EmailField } from './AuthForm';
import { AuthHeading, CheckEmailHeading } from './AuthLayout';
import { resetRequestError } from '../../account/formRules';
import { rateLimitEnd } from '../../account/useVerificationResend';

function BackToLogin() {
  return (
    <p className="auth-alt">
      <Link to={ROUTES.login} className="auth-back">
        <IconArrowLeft size={16} />
        Back to log in
      </Link>
    </p>
  );
}

export function RequestResetForm({ initialEmail }: { initialEmail: string }) {
  const [email, setEmail] = useState(initialEmail);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [waitEndsAt, setWaitEndsAt] = useState<number | null>(null);
  const [limited, setLimited] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const secondsLeft = useCountdown(waitEndsAt);

  const send = async (address: string) => {
    setBusy(true);
    setError(null);
    setLimited(false);
    try {
      const { retryAfterSeconds } = await api.resetRequest({ email: address });
      setSentTo(address);
      setWaitEndsAt(waitUntil(Date.now(), retryAfterSeconds));
    } catch (e) {
      const limitedUntil = rateLimitEnd(e);
      if (limitedUntil !== null) {
        // A link went out moments ago: show the confirmation with the server's remaining wait.
        setSentTo(address);
        setLimited(true);
        setWaitEndsAt(limitedUntil);
      } else {
        setError(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = () => {
    const invalid = resetRequestError(email);
    setError(invalid);
    if (!invalid) void send(email.trim());
  };

  if (sentTo) {
    const waiting = secondsLeft > 0;
    return (
      <>
        <CheckEmailHeading>
          If an account exists for <strong className="auth-email">{sentTo}</strong>, a link to reset its password is on its way.
        </CheckEmailHeading>
        <div className="stack">
          {limited && waiting && (
            <Alert tone="warning" title={MSG.resetLimitShown}>
              {MSG.pleaseWait(secondsLeft)}
            </Alert>
          )}
          {error && <Alert tone="error">{error}</Alert>}
          <p className="auth-countdown" aria-live="polite">
            {waiting ? `You can request another link in ${secondsLeft} s.` : "Didn't get it? Check your spam folder or send it again."}
          </p>
          <Button variant="secondary" size="lg" block disabled={waiting} busy={busy} onClick={() => void send(sentTo)}>
            Resend reset link
          </Button>
        </div>
        <BackToLogin />
      </>
    );
  }

  return (
    <>
      <AuthHeading
        icon={<IconLock size={24} />}
        title="Reset your password"
        subtitle="Enter the email of your account and we'll send you a link to choose a new password."
      />
      <AuthForm error={error} busy={busy} submitLabel="Send reset link" busyLabel="Sending link..." onSubmit={submit}>
        <EmailField value={email} onChange={setEmail} autoFocus />
      </AuthForm>
      <BackToLogin />
    </>
  );
}
