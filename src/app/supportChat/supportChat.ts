// The support-chat widget (Intercom's messenger, or a compatible stand-in): its script is loaded
// from the deployment's configured URL once a user is known, and booted with an identity token from
// `POST /user/intercom`, kept with its expiry and fetched again when missing or expired.
import type { IntercomAnswer, SupportChatConfig } from '../../contract';
import { localStore } from '../state/localStore';

/** Intercom's command function: a queue until its script has loaded and takes the queued calls over. */
type IntercomFn = ((command: string, ...args: unknown[]) => void) & { q?: unknown[][] };

declare global {
  interface Window {
    Intercom?: IntercomFn;
  }
}

export const SUPPORT_CHAT_TOKEN_KEY = 'clipseek.supportChat';
/** A stored token this close to its expiry is fetched again rather than handed to the widget. */
const EXPIRY_MARGIN_MS = 60_000;

interface StoredToken {
  userId: string;
  token: string;
  expiresAt: string;
}

/** The stored token of `userId` when it is still good for a minute or more. */
export function storedToken(userId: string, now = Date.now()): string | null {
  try {
    const s = JSON.parse(localStore()?.getItem(SUPPORT_CHAT_TOKEN_KEY) ?? 'null') as StoredToken | null;
    if (!s || s.userId !== userId || typeof s.token !== 'string') return null;
    return Date.parse(s.expiresAt) - now > EXPIRY_MARGIN_MS ? s.token : null;
  } catch {
    return null;
  }
}

/** The user's chat token: the stored one, or a new one from `fetchToken` (then stored with its expiry). */
export async function chatToken(userId: string, fetchToken: () => Promise<IntercomAnswer>): Promise<string> {
  const kept = storedToken(userId);
  if (kept) return kept;
  const answer = await fetchToken();
  localStore()?.setItem(SUPPORT_CHAT_TOKEN_KEY, JSON.stringify({ userId, token: answer.intercomToken, expiresAt: answer.expiresAt }));
  return answer.intercomToken;
}

export function forgetChatToken() {
  localStore()?.removeItem(SUPPORT_CHAT_TOKEN_KEY);
}

/** Puts Intercom's command queue in place and adds its script (once per page). */
function loadWidget(config: SupportChatConfig) {
  if (!window.Intercom) {
    const queue: IntercomFn = (...args: unknown[]) => queue.q!.push(args);
    queue.q = [];
    window.Intercom = queue;
  }
  if (document.querySelector('script[data-support-chat]')) return;
  const script = document.createElement('script');
  script.async = true;
  script.src = config.scriptUrl;
  script.dataset.supportChat = config.appId;
  document.head.appendChild(script);
}

/** Starts the widget for one user; the returned function shuts it down (logout, another account). */
export function startSupportChat(config: SupportChatConfig, user: { id: string; email: string; name?: string | null }, token: string) {
  loadWidget(config);
  window.Intercom!('boot', {
    app_id: config.appId,
    user_id: user.id,
    email: user.email,
    ...(user.name ? { name: user.name } : {}),
    intercom_user_jwt: token,
  });
  return () => window.Intercom?.('shutdown');
}
