import { MSG } from '../../../contract';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { IconMail } from '../../ui/icons';
import { useVerificationResend } from '../../account/useVerificationResend';

/** The resend-verification notice of unverified accounts, with the same 60-second wait as /verify-email. */
export function VerifyNotice({ email }: { email: string }) {
  const { secondsLeft, busy, resend } = useVerificationResend(email, { onError: (message) => showToast(message, { tone: 'error' }) });

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
