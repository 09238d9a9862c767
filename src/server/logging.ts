import { pino, type LoggerOptions } from 'pino';

/**
 * Query parameters that carry a secret somewhere in this app or its stores: preview and blob tokens,
 * emailed codes, HMAC and S3 signatures, and the usual names of keys and passwords.
 */
const SECRET_PARAMS = new Set([
  'token',
  'code',
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'access_token',
  'id_token',
  'refresh_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
]);

const REDACTED = '[redacted]';

/** A URL or path with the values of its secret query (and fragment) parameters and any userinfo password replaced. */
export function redactUrl(url: unknown): unknown {
  if (typeof url !== 'string') return url;
  return url
    .replace(/([?&#])([^=&#\s]+)=([^&#\s]*)/g, (whole, sep: string, name: string) =>
      SECRET_PARAMS.has(decodeURIComponentSafe(name).toLowerCase()) ? `${sep}${name}=${REDACTED}` : whole,
    )
    .replace(/(\/\/[^/:@\s]+):[^/@\s]+@/g, `$1:${REDACTED}@`);
}

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Free text (a log message) with URLs' secrets, JWTs and bearer credentials taken out. */
export function redactText(text: string): string {
  return (redactUrl(text) as string)
    .replace(/\b(Bearer|Basic)\s+[^\s"',]+/gi, `$1 ${REDACTED}`)
    .replace(/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, '[redacted jwt]');
}

/**
 * Field paths never logged: credentials in headers, passwords, tokens and codes in bodies, and the
 * configuration's secrets should a config object ever be logged.
 */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-key"]',
  'req.headers["stripe-signature"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-admin-key"]',
  ...['password', 'oldPassword', 'newPassword', 'token', 'intercomToken', 'adminKey'].flatMap((k) => [k, `*.${k}`]),
  ...['jwtSecret', 'intercomSecret', 'stripeSecretKey', 'stripeWebhookSecret', 'secretAccessKey', 'smtpUrl', 'databaseUrl'].flatMap((k) => [
    k,
    `*.${k}`,
    `*.*.${k}`,
  ]),
];

/**
 * The server's pino options: secrets redacted by path, every `url`-like field through `redactUrl`, and
 * every message string through `redactText` (so a token interpolated into a message is caught too).
 */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      url: redactUrl,
      link: redactUrl,
      from: redactUrl,
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
      err: (err: Error) => {
        const e = pino.stdSerializers.err(err);
        return { ...e, message: redactText(e.message), stack: redactText(e.stack) };
      },
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a)) as Parameters<typeof method>);
      },
    },
  };
}

export const createPinoLogger = (level: string) => pino(loggerOptions(level));
