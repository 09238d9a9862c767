import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { API, LAST_LIBRARIES_MAX, type User } from '../../contract';
import { apiClient } from '../api/instance';
import { PreferencesSync } from './preferencesSync';
import { session } from './session';

/**
 * The libraries the search page opens on (issue 37, item 8): the ones the user last searched,
 * browsed or uploaded into. Kept with the account's settings (POST /user/me/settings), so another
 * device opens on them too; this device's latest note is the truth here until it is sent.
 */
export const lastLibraries = proxy<{ ids: string[] }>({ ids: [] });

const sync = new PreferencesSync<string[]>(
  async (ids) => {
    // Only this field: the server merges it into the stored settings, leaving the preferences as they are.
    const user = await apiClient.request<User>(API.meSettings, {
      method: 'POST',
      body: { lastLibraryIds: ids },
      auth: 'required',
      keepalive: true,
    });
    if (session.user && session.user._id === user._id) session.user.settings = user.settings;
  },
  () => [...lastLibraries.ids],
  (error) => console.warn('Could not save the last library', error),
);

let loadedFor: string | null = null;

function adopt(user: User | null) {
  if (!user) {
    loadedFor = null;
    lastLibraries.ids = [];
    return;
  }
  // Another account replaces what this one noted; the same account's answers do only when nothing
  // noted here is still waiting to be sent (an answer would otherwise undo it).
  if (user._id === loadedFor && sync.busy) return;
  loadedFor = user._id;
  lastLibraries.ids = [...(user.settings.lastLibraryIds ?? [])];
}

adopt(session.user);
window.addEventListener('pagehide', () => sync.flushNow());
subscribeKey(session, 'user', adopt);

/** Notes that the user searched, browsed or uploaded into `ids` (in order); the search page opens on them next. */
export function noteLibrariesUsed(ids: readonly string[]) {
  const next = [...new Set(ids)].slice(0, LAST_LIBRARIES_MAX);
  if (!next.length || !session.user) return;
  if (next.length === lastLibraries.ids.length && next.every((id, i) => id === lastLibraries.ids[i])) return;
  lastLibraries.ids = next;
  sync.changed();
}
