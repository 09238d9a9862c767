import { isAllowedRedirect, MSG_BILLING, type PurchaseAnswer } from '../../contract';
import { ALLOWED_REDIRECT_HOSTS } from '../config';
import { invalidateCredits } from '../state/credits';
import { showToast } from '../state/toasts';

/** Whether the app may send the user to `url`: its own origin, or an allow-listed host (spec section 8). */
export const mayRedirectTo = (url: string) => isAllowedRedirect(url, ALLOWED_REDIRECT_HOSTS, window.location.origin);

/**
 * Opens an external page (billing portal, invoice) in a new tab once its address is known. The tab
 * is opened at the click, while the browser still counts it as the user's gesture (a tab opened after
 * an await is blocked as a pop-up), and is closed again when the address is refused or fails.
 * Resolves whether the page was opened.
 */
export async function openExternal(address: () => Promise<string>, onError: (error: unknown) => void): Promise<boolean> {
  const tab = window.open('', '_blank');
  try {
    const url = await address();
    if (!mayRedirectTo(url)) {
      tab?.close();
      showToast(MSG_BILLING.redirectBlocked, { tone: 'error' });
      return false;
    }
    if (tab) {
      // The billing page must not be able to script or navigate this tab.
      tab.opener = null;
      tab.location.href = url;
    } else window.open(url, '_blank', 'noopener,noreferrer');
    return true;
  } catch (e) {
    tab?.close();
    onError(e);
    return false;
  }
}

/**
 * Follows a purchase answer: settled (or scheduled) purchases invalidate the credits so the header
 * shows them at once; a checkout page is opened in this tab when its host is allowed.
 */
export async function followPurchase(answer: PurchaseAnswer): Promise<'settled' | 'redirected' | 'blocked'> {
  if (answer.status === 'redirect') {
    if (answer.url && mayRedirectTo(answer.url)) {
      window.location.assign(answer.url);
      return 'redirected';
    }
    showToast(MSG_BILLING.redirectBlocked, { tone: 'error' });
    return 'blocked';
  }
  await invalidateCredits();
  return 'settled';
}
