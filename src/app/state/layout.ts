import { proxy, subscribe } from 'valtio';

const DRAWER_KEY = 'clipseek.drawerOpen';

const readDrawer = () => {
  try {
    return localStorage.getItem(DRAWER_KEY) !== 'false';
  } catch {
    return true;
  }
};

/** Shell UI state that outlives a page: the drawer's width choice and the hidden impersonation banner. */
export const layout = proxy({
  /** Persistent drawer expanded (268 px) or collapsed (72 px). */
  drawerExpanded: readDrawer(),
  /** Temporary (overlay) drawer shown, on narrow windows. */
  drawerSheetOpen: false,
  impersonationBannerHidden: false,
});

subscribe(layout, () => {
  try {
    localStorage.setItem(DRAWER_KEY, String(layout.drawerExpanded));
  } catch {
    // Preference only; losing it is harmless.
  }
});
