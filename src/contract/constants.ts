/** Business constants and limits of the specs (accounts section 9; libraries section 9 joins later). */
export const PASSWORD_MIN_LENGTH = 8;
/** Wait between verification or reset emails, enforced by client and server. */
export const RESEND_WAIT_SECONDS = 60;
export const RESEND_WAIT_MS = RESEND_WAIT_SECONDS * 1000;

export const TOAST_DEFAULT_MS = 3000;
export const TOAST_MAX_STACK = 3;

export const DRAWER_OPEN_PX = 268;
export const DRAWER_CLOSED_PX = 72;
export const DRAWER_TEMPORARY_BELOW_PX = 768;

export const HERO = { maxColumns: 2, minCellWidth: 290, gap: 10, aspect: 16 / 9, hdAboveWidth: 3800 } as const;

export const FILTER_PILL_MAX_CHARS = 8;
export const MIN_AGE = 16;
export const TERMS_NOTICE_DAYS = 30;
export const ONE_DAY_MS = 86_400_000;

/** Server-side account rules (not numbers of the spec, chosen here). */
export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const EMAIL_CODE_TTL_SECONDS = 24 * 3600;
export const RESET_CODE_TTL_SECONDS = 3600;
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_MAX_FAILURES_PER_ACCOUNT = 10;
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 30;
/**
 * Abuse limits of the unauthenticated account calls (ours: the spec fixes only the 60 s between two
 * emails). An address is the client's IP (from X-Forwarded-For only with TRUST_PROXY); an account is
 * the email asked about. Only accepted requests count, so a refused flood does not extend itself.
 */
export const REGISTER_WINDOW_SECONDS = 3600;
export const REGISTER_MAX_PER_ADDRESS = 30;
export const REGISTER_MAX_PER_EMAIL = 10;
/** Password-reset and verification-resend requests: emails to one account, requests from one address, an hour. */
export const MAIL_REQUEST_WINDOW_SECONDS = 3600;
export const MAIL_REQUESTS_MAX_PER_ACCOUNT = 5;
export const MAIL_REQUESTS_MAX_PER_ADDRESS = 20;

/** Service worker of the web app and the message it posts to open tabs (accounts spec, section 4). */
export const SERVICE_WORKER_PATH = '/service-worker.js';
export const SW_REFRESH_ACCOUNT_DETAILS = 'REFRESH_ACCOUNT_DETAILS';
