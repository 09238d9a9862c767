import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { ROUTES } from '../../contract';
import { logout } from '../state/account';

/** Logs out and goes to /login (spec section 4), from wherever the user was. */
export function useLogout() {
  const navigate = useNavigate();
  return useCallback(() => {
    void logout().then(() => navigate(ROUTES.login, { replace: true }));
  }, [navigate]);
}
