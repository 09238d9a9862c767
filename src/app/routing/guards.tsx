import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { ROUTES } from '../../contract';
import { refreshAccount } from '../state/account';
import { session, type SessionEnd } from '../state/session';
import { Alert } from '../ui/Alert';
import { Button } from '../ui/Button';
import { PageSpinner } from '../ui/Spinner';

/** /login, remembering where the visitor was going (only used after sign-in via safeNextPath). */
export const loginPathFor = (path: string) => `${ROUTES.login}?next=${encodeURIComponent(path)}`;

/** Where a visitor asking for a signed-in page goes: `loginPathFor(path)`, or plain /login right after their own logout. */
export const visitorPathFor = (path: string, endedBy: SessionEnd | null) => (endedBy === 'logout' ? ROUTES.login : loginPathFor(path));

/**
 * Gate of signed-in pages. Visitors go to /login with the path saved (except right after their own
 * logout); with `verified`, accounts that still have to confirm their email go to /verify-email.
 */
export function RequireSession({ verified = false }: { verified?: boolean }) {
  const { token, user, status, endedBy } = useSnapshot(session);
  const location = useLocation();
  if (!token) {
    return <Navigate to={visitorPathFor(location.pathname + location.search + location.hash, endedBy)} replace />;
  }
  if (!user) return status === 'error' ? <ConnectionProblem /> : <PageSpinner />;
  if (verified && user.isVerified === false) return <Navigate to={ROUTES.verifyEmail} replace />;
  return <Outlet />;
}

/** Shown when the account could not be fetched for a reason other than the token (network, server down). */
export function ConnectionProblem() {
  return (
    <div className="page" style={{ maxWidth: 480 }}>
      <div className="stack">
        <Alert tone="error" title="We couldn't load your account">
          Check your connection, then try again.
        </Alert>
        <div>
          <Button variant="secondary" onClick={() => void refreshAccount()}>
            Try again
          </Button>
        </div>
      </div>
    </div>
  );
}
