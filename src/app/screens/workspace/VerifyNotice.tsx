import { useState } from 'react';
import { MSG, RESEND_WAIT_SECONDS } from '../../../contract';
import { isApiError } from '../../api/ApiError';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { canResend, waitUntil } from '../../hooks/countdown';
import { useCountdown } from '../../hooks/useCountdown';
import { showToast } from '../../state/toasts';
import { lastVerificationSentAt, recordVerificationSent } from '../../state/verificationResend';
import { Button } from '../../ui/Button';
import { IconMail } from '../../ui/icons';

/** The resend-verification notice of unverified accounts, with the same 60-second wait as /verify-email. */
export function VerifyNotice({ email }: { email: string }) {
  const [sentAt, setSentAt] = useState(() => lastVerificationSentAt(email));
  const [waitEndsAt, setWaitEndsAt] = useState(() => (sentAt ? waitUntil(sentAt) : null));
  const [busy, setBusy] = useState(false);
  const secondsLeft = useCountdown(waitEndsAt);

  const resend = async () => {
    const now = Date.now();
    if (!canResend(sentAt, now)) return;
    setBusy(true);
    try {
      const { retryAfterSeconds } = await api.resendVerification({ email });
      recordVerificationSent(email, now);
      setSentAt(now);
      setWaitEndsAt(waitUntil(now, retryAfterSeconds));
      showToast(`Verification email sent to ${email}`, { tone: 'success' });
    } catch (e) {
      if (isApiError(e) && e.code === 'rate_limited') setWaitEndsAt(Date.now() + (e.retryAfterSeconds ?? RESEND_WAIT_SECONDS) * 1000);
      else showToast(errorMessage(e), { tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="verify-notice" role="status">
      <span className="verify-notice__icon">
        <IconMail size={20} />
      </span>
      <div className="verify-notice__text">
        <p className="verify-notice__title">{MSG.verifyToAdd}</p>
        <p className="verify-notice__hint">
          {secondsLeft > 0 ? `You can send another email in ${secondsLeft} s.` : 'Open the link we emailed you, or send a new one.'}
        </p>
      </div>
      <Button variant="secondary" busy={busy} disabled={secondsLeft > 0} onClick={() => void resend()}>
        {MSG.resendVerification}
      </Button>
    </section>
  );
}
