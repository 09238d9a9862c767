import { proxy, snapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import { API, DEFAULT_UI_PREFERENCES, type UiPreferences, type User, type UserSettings } from '../../contract';
import { apiClient } from '../api/instance';
import { PreferencesSync } from './preferencesSync';
import { session } from './session';

/**
 * The six UI preferences saved on the account (libraries spec section 3): sound, autoplay, the
 * library view mode and the open sections of the processing/failed modals. They load from the
 * signed-in user and sync back through one PreferencesSync; nothing else writes them.
 */
export const preferences = proxy<UiPreferences>({
  ...DEFAULT_UI_PREFERENCES,
  processingListModalActiveKeys: [...DEFAULT_UI_PREFERENCES.processingListModalActiveKeys],
  failedListModalActiveKeys: [...DEFAULT_UI_PREFERENCES.failedListModalActiveKeys],
});

const KEYS = Object.keys(DEFAULT_UI_PREFERENCES) as (keyof UiPreferences)[];

const pick = (settings: Partial<UiPreferences> | undefined): UiPreferences => {
  const out = { ...DEFAULT_UI_PREFERENCES };
  for (const key of KEYS) if (settings?.[key] !== undefined) (out as Record<string, unknown>)[key] = settings[key];
  return out;
};

const sync = new PreferencesSync<UiPreferences>(
  async (prefs) => {
    // The existing settings merged with the six preference fields (section 7), but for the fields
    // with a writer of their own (lastLibraries.ts): the server keeps those, and this device's copy
    // may be older than another device's.
    const { lastLibraryIds: _ownWriter, ...current } = session.user ? session.user.settings : ({} as Partial<UserSettings>);
    // keepalive: the last change may be sent while the page unloads (see flushNow below).
    const user = await apiClient.request<User>(API.meSettings, {
      method: 'POST',
      body: { ...current, ...prefs },
      auth: 'required',
      keepalive: true,
    });
    if (session.user && session.user._id === user._id) session.user.settings = user.settings;
  },
  () => snapshot(preferences) as UiPreferences,
  (error) => console.warn('Could not save preferences', error),
);

let loadedFor: string | null = null;

function adopt(user: User | null) {
  if (!user) {
    loadedFor = null;
    return;
  }
  // Only a newly signed-in account replaces local values; answers for the same account would
  // otherwise undo edits still waiting to be sent.
  if (user._id === loadedFor) return;
  loadedFor = user._id;
  Object.assign(preferences, pick(user.settings));
}

adopt(session.user);
// A change made just before a reload or tab close would otherwise wait out its debounce and be lost.
window.addEventListener('pagehide', () => sync.flushNow());
subscribeKey(session, 'user', adopt);

export function setPreference<K extends keyof UiPreferences>(key: K, value: UiPreferences[K]) {
  if (preferences[key] === value) return;
  preferences[key] = value;
  sync.changed();
}
