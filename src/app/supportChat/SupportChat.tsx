import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { SupportChatConfig } from '../../contract';
import { serverHealth } from '../api/health';
import { api } from '../api/instance';
import { session } from '../state/session';
import { chatToken, forgetChatToken, startSupportChat } from './supportChat';

// Signed out (from wherever): the next account must not be handed this one's token.
subscribeKey(session, 'token', (token) => {
  if (!token) forgetChatToken();
});

/** The deployment's support-chat settings once `/health` has answered: undefined while asking, null when there is no chat. */
export function useSupportChatConfig(): SupportChatConfig | null | undefined {
  const [config, setConfig] = useState<SupportChatConfig | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    serverHealth().then(
      (h) => live && setConfig(h.supportChat ?? null),
      () => live && setConfig(null),
    );
    return () => {
      live = false;
    };
  }, []);
  return config;
}

/**
 * Starts the support chat once the user is known (a verified account, not while support staff
 * impersonate it), and shuts it down when they sign out or another account signs in.
 */
export function SupportChat() {
  const { user, claims } = useSnapshot(session);
  const config = useSupportChatConfig();
  const userId = user?.isVerified && !claims?.impersonatedBy ? user._id : null;
  const email = user?.email ?? '';
  const name = user?.name ?? null;
  useEffect(() => {
    if (!config || !userId) return;
    let stop: (() => void) | null = null;
    let live = true;
    chatToken(userId, api.intercom).then(
      (t) => {
        if (live) stop = startSupportChat(config, { id: userId, email, name }, t);
      },
      () => undefined, // no chat this time; the app works without it
    );
    return () => {
      live = false;
      stop?.();
    };
  }, [config, userId, email, name]);
  return null;
}
