import { ROUTES, SERVICE_WORKER_PATH, SW_REFRESH_ACCOUNT_DETAILS } from '../../contract';
import { resyncFromStorage } from './account';
import { session } from './session';

type Navigate = (path: string) => void;

/**
 * Handles the worker's REFRESH_ACCOUNT_DETAILS: re-read the token, refetch the account, and send
 * the tab where the account now belongs.
 */
export async function refreshAccountDetails(navigate: Navigate, currentPath: () => string) {
  const hadSession = session.token !== null;
  const user = await resyncFromStorage();
  const path = currentPath();
  if (!session.token) {
    if (hadSession && path !== ROUTES.login) navigate(ROUTES.login);
    return;
  }
  // Pages that are themselves verifying the account are left to finish.
  const verifying = [ROUTES.verifyEmail, ROUTES.confirmEmail, ROUTES.impersonate] as string[];
  if (user && user.isVerified === false && !verifying.includes(path)) navigate(ROUTES.verifyEmail);
}

export function registerServiceWorker(navigate: Navigate, currentPath: () => string) {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (data?.type === SW_REFRESH_ACCOUNT_DETAILS) void refreshAccountDetails(navigate, currentPath);
  });
  navigator.serviceWorker.register(SERVICE_WORKER_PATH).catch((e: unknown) => {
    // The app works without the worker; it only loses the account refresh it announces.
    console.warn('Service worker registration failed', e);
  });
}
