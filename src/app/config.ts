/** Build-time configuration of the web app (Vite env variables, all optional). */
const env = import.meta.env as Record<string, string | undefined>;

/** Origin of the API; empty means the same origin that served the app. */
export const API_BASE = (env.VITE_API_BASE ?? '').replace(/\/$/, '');

/** Wire format of request bodies and answers; msgpack unless told otherwise. */
export const API_FORMAT: 'msgpack' | 'json' = env.VITE_API_FORMAT === 'json' ? 'json' : 'msgpack';

/** The company's public profile, linked from the avatar menu. */
export const COMPANY_SOCIAL = {
  label: 'Clipseek on GitHub',
  url: env.VITE_COMPANY_SOCIAL_URL ?? 'https://github.com/clipseek',
} as const;

/** Address for privacy and legal requests, shown on the legal pages when the deployment sets one. */
export const CONTACT_EMAIL = env.VITE_CONTACT_EMAIL ?? null;
