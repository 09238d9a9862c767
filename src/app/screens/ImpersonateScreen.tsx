import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../contract';
import { refreshAccount } from '../state/account';
import { setToken } from '../state/session';
import { PageSpinner } from '../ui/Spinner';

/** /impersonate#token=...: adopts the support session from the hash (a hash is never sent to a server). */
export default function ImpersonateScreen() {
  const navigate = useNavigate();
  // Read once at mount: the effect clears the hash, and may run twice in development.
  const [token] = useState(() => new URLSearchParams(window.location.hash.slice(1)).get('token'));
  useEffect(() => {
    // Drop the token from the address bar and history before anything else can read or share it.
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!token) {
      void navigate(ROUTES.login, { replace: true });
      return;
    }
    setToken(token);
    void refreshAccount();
    void navigate(ROUTES.workspace, { replace: true });
  }, [navigate, token]);
  return <PageSpinner label="Signing in" />;
}
