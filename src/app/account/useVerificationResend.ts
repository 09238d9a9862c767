import { useState } from 'react';
import { RESEND_WAIT_SECONDS } from '../../contract';
import { isApiError } from '../api/ApiError';
import { errorMessage } from '../api/errorMessage';
import { api } from '../api/instance';
import { canResend, waitUntil } from '../hooks/countdown';
import { useCountdown } from '../hooks/useCountdown';
import { showToast } from '../state/toasts';
import { lastVerificationSentAt, recordVerificationSent } from '../state/verificationResend';

/** When a 'rate_limited' refusal says the wait ends (the server's retry time, else the usual wait); null for other errors. */
export function rateLimitEnd(error: unknown, nowMs = Date.now()): number | null {
  if (!isApiError(error) || error.code !== 'rate_limited') return null;
  return nowMs + (error.retryAfterSeconds ?? RESEND_WAIT_SECONDS) * 1000;
}

/**
 * Resending the verification email to `email`, with the 60-second wait that survives a reload.
 * `onStart` runs when a resend goes out; `onError` gets the message of a failure other than the wait.
 */
export function useVerificationResend(email: string, { onStart, onError }: { onStart?: () => void; onError: (message: string) => void }) {
  const [sentAt, setSentAt] = useState(() => lastVerificationSentAt(email));
  const [waitEndsAt, setWaitEndsAt] = useState(() => (sentAt ? waitUntil(sentAt) : null));
  const [busy, setBusy] = useState(false);
  const secondsLeft = useCountdown(waitEndsAt);

  const resend = async () => {
    const now = Date.now();
    if (!canResend(sentAt, now)) return;
    setBusy(true);
    onStart?.();
    try {
      const { retryAfterSeconds } = await api.resendVerification({ email });
      recordVerificationSent(email, now);
      setSentAt(now);
      setWaitEndsAt(waitUntil(now, retryAfterSeconds));
      showToast(`Verification email sent to ${email}`, { tone: 'success' });
    } catch (e) {
      const limitedUntil = rateLimitEnd(e);
      if (limitedUntil !== null) setWaitEndsAt(limitedUntil);
      else onError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return { secondsLeft, busy, resend };
}
