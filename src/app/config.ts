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

/** Where the pricing page's enterprise tier sends visitors (a mailto link). */
export const SALES_EMAIL = env.VITE_SALES_EMAIL ?? 'sales@clipseek.app';

/**
 * External hosts the app may send the user to (checkout, billing portal, invoices); the app's own
 * origin is always allowed. Comma-separated in VITE_ALLOWED_REDIRECT_HOSTS; '*.example.com' matches subdomains.
 */
export const ALLOWED_REDIRECT_HOSTS: readonly string[] = (
  env.VITE_ALLOWED_REDIRECT_HOSTS ?? 'checkout.stripe.com,billing.stripe.com,invoice.stripe.com,pay.stripe.com'
)
  .split(',')
  .map((h) => h.trim())
  .filter(Boolean);
