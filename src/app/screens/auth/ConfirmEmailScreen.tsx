import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { User } from '../../../contract';
import { MSG, ROUTES } from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { api } from '../../api/instance';
import { signedIn } from '../../state/account';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import { AuthHeading } from './AuthLayout';

// One call per code: a code works once, and React may run the effect twice in development.
const confirmations = new Map<string, Promise<User>>();
const confirmOnce = (code: string) => {
  let pending = confirmations.get(code);
  if (!pending) {
    pending = api.verifyEmail({ token: code });
    confirmations.set(code, pending);
  }
  return pending;
};

/** /confirm-email?code=...: verifying signs the user in, then the app opens at /. */
export default function ConfirmEmailScreen() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const code = params.get('code');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!code) {
      void navigate(ROUTES.root, { replace: true });
      return;
    }
    let active = true;
    confirmOnce(code).then(
      (user) => {
        // The account is verified and signed in even if the user has already left this page.
        signedIn(user);
        if (active) void navigate(ROUTES.root, { replace: true });
      },
      (e: unknown) => {
        if (active) setError(errorMessage(e));
      },
    );
    return () => {
      active = false;
    };
  }, [code, navigate]);

  if (error) {
    return (
      <>
        <AuthHeading title="We couldn't confirm your email" />
        <div className="stack">
          <Alert tone="error">{error}</Alert>
          <Button asChild size="lg" block>
            <Link to={ROUTES.login}>Sign in</Link>
          </Button>
        </div>
      </>
    );
  }

  return (
    <div className="auth-center" role="status">
      <Spinner size={32} />
      <p>{MSG.confirmingEmail}</p>
    </div>
  );
}
