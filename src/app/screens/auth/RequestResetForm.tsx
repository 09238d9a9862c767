import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { MSG, RESEND_WAIT_SECONDS, ROUTES } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { waitUntil } from '../../hooks/countdown';
import { useCountdown } from '../../hooks/useCountdown';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { IconArrowLeft, IconLock, IconMail } from '../../ui/icons';
import { TextField } from '../../ui/TextField';
import { AuthHeading } from './AuthLayout';
import { resetRequestError } from './formRules';

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
      if (isApiError(e) && e.code === 'rate_limited') {
        // A link went out moments ago: show the confirmation with the server's remaining wait.
        setSentTo(address);
        setLimited(true);
        setWaitEndsAt(Date.now() + (e.retryAfterSeconds ?? RESEND_WAIT_SECONDS) * 1000);
      } else {
        setError(errorMessage(e));
      }
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = resetRequestError(email);
    setError(invalid);
    if (!invalid) void send(email.trim());
  };

  if (sentTo) {
    const waiting = secondsLeft > 0;
    return (
      <>
        <AuthHeading
          icon={<IconMail size={24} />}
          title={MSG.checkYourEmail}
          subtitle={
            <>
              If an account exists for <strong className="auth-email">{sentTo}</strong>, a link to reset its password is on its way.
            </>
          }
        />
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
      <form className="auth-form" onSubmit={submit} noValidate>
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
        <div className="auth-form__actions">
          <Button type="submit" size="lg" block busy={busy}>
            {busy ? 'Sending link...' : 'Send reset link'}
          </Button>
        </div>
      </form>
      <BackToLogin />
    </>
  );
}
