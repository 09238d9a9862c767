import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** What the policies depend on: where the app is served, the support-chat widget, the blob store. */
export interface SecurityHeaderOptions {
  /** The public URL (APP_URL); read per request, since with PORT=0 it is known only after listen. */
  appUrl: () => string;
  /** The support-chat widget's script (INTERCOM_WIDGET_URL or Intercom's), when the widget is on. */
  widgetUrl: string | null;
  /** Origins the browser talks to for media besides the app (an S3-compatible store's presigned URLs). */
  blobOrigins: string[];
}

/** The policy of every response that is not a document or a script: nothing may load from it, nothing may frame it. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** HSTS lifetime: 180 days (helmet's default is one year; half a year lets a mistake expire sooner). */
const HSTS_MAX_AGE_SECONDS = 180 * 24 * 3600;

/**
 * The hosts Intercom's messenger needs beyond its script (its published allow-list, as wildcards):
 * API and websockets, its CDNs for scripts, fonts, images and uploads, its frames.
 */
const INTERCOM = {
  script: ['https://*.intercom.io', 'https://*.intercomcdn.com'],
  connect: [
    'https://*.intercom.io',
    'wss://*.intercom.io',
    'https://*.intercom-messenger.com',
    'wss://*.intercom-messenger.com',
    'https://*.intercomcdn.com',
    'https://*.intercomcdn.eu',
    'https://*.intercomusercontent.com',
  ],
  img: ['https://*.intercomcdn.com', 'https://*.intercomcdn.eu', 'https://*.intercomassets.com', 'https://*.intercomusercontent.com'],
  font: ['https://*.intercomcdn.com'],
  media: ['https://*.intercomcdn.com'],
  frame: ['https://*.intercom.io', 'https://intercom-sheets.com', 'https://www.intercom-reporting.com'],
};

const isIntercom = (origin: string) => /^https:\/\/([a-z0-9-]+\.)*intercom\.io$/i.test(origin);

/**
 * The web app's Content-Security-Policy, as directives. What each source is for:
 * - script 'self': vite's built modules; 'wasm-unsafe-eval': ffmpeg.wasm (compilation preview). No eval:
 *   PixiJS runs with its eval-free uploaders (`pixi.js/unsafe-eval`, imported by the engine).
 * - worker 'self' blob: the thumbnail, fingerprint and compile workers (module workers from /assets).
 * - media and img blob: hls.js plays through MediaSource (blob: URLs) and the merge preview is a blob;
 *   img data: the image query's preview (a data:image/ URL), Radix and canvas snapshots.
 * - style 'unsafe-inline': Radix and react-remove-scroll set style elements and attributes; scripts stay strict.
 * - connect 'self': the API, HLS segments, byte ranges, ffmpeg's core and wasm; blob: reading back the
 *   page's own blobs (the merge preview's bytes); plus the blob store's origin.
 * - frame-ancestors 'none' (clickjacking), form-action 'self' (the local billing portal's one form),
 *   object-src 'none', base-uri 'self'.
 * The support-chat widget, when configured, adds its script's origin (and Intercom's hosts for
 * Intercom's own script) where such a widget loads from: script, connect, img, font, media, frame, style.
 */
export function appCspDirectives(o: { https: boolean; widgetUrl: string | null; blobOrigins: string[] }): Record<string, string[]> {
  const widget = o.widgetUrl ? new URL(o.widgetUrl).origin : null;
  const extra = (kind: keyof typeof INTERCOM) => (widget ? [widget, ...(isIntercom(widget) ? INTERCOM[kind] : [])] : []);
  const unique = (xs: string[]) => [...new Set(xs)];
  const directives: Record<string, string[]> = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src': unique(["'self'", "'wasm-unsafe-eval'", ...extra('script')]),
    'script-src-attr': ["'none'"],
    'worker-src': ["'self'", 'blob:'],
    'style-src': unique(["'self'", "'unsafe-inline'", ...(widget ? [widget] : [])]),
    'img-src': unique(["'self'", 'data:', 'blob:', ...o.blobOrigins, ...extra('img')]),
    'media-src': unique(["'self'", 'blob:', ...o.blobOrigins, ...extra('media')]),
    'font-src': unique(["'self'", 'data:', ...extra('font')]),
    'connect-src': unique(["'self'", 'blob:', ...o.blobOrigins, ...extra('connect')]),
    'frame-src': widget ? unique(extra('frame')) : ["'none'"],
    'manifest-src': ["'self'"],
  };
  if (o.https) directives['upgrade-insecure-requests'] = [];
  return directives;
}

/** Documents and scripts (workers and the service worker take the policy of their own script) get the app's policy. */
const APP_POLICY_TYPE = /^(text\/html|text\/javascript|application\/javascript)\b/i;
/** The files of those types, by name: what @fastify/static serves as text/html or application/javascript. */
const APP_POLICY_FILE = /\.(html?|m?js)$/i;

/**
 * Whether a response takes the app's policy: by its Content-Type, or, for a 304 (which names no type:
 * the file server leaves representation headers off it), by the file its path names. The browser
 * merges a 304's headers into the response it cached, policy included, and a worker started from that
 * cached script runs under it: a 304 of a script must carry the policy its 200 carried (with the
 * API's, default-src 'none', the merge preview's worker could no longer load ffmpeg-core).
 */
function takesAppPolicy(url: string, status: number, type: string | undefined): boolean {
  if (type) return APP_POLICY_TYPE.test(type);
  return status === 304 && APP_POLICY_FILE.test(url.split('?')[0]!);
}

/**
 * Security headers on every response (@fastify/helmet): the app's CSP on HTML and scripts (and on
 * their 304s), a strict one on everything else (API answers, media, blobs); nosniff; X-Frame-Options DENY and
 * frame-ancestors 'none'; Referrer-Policy same-origin; HSTS only when served over TLS (APP_URL is
 * https, or a trusted proxy says the request came over https).
 */
export async function registerSecurityHeaders(app: FastifyInstance, o: SecurityHeaderOptions) {
  const directives = appCspDirectives({ https: o.appUrl().startsWith('https:'), widgetUrl: o.widgetUrl, blobOrigins: o.blobOrigins });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    // Set per request below: only over TLS.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (req, res) => {
    const type = res.getHeader('content-type');
    if (!takesAppPolicy(req.url, res.statusCode, type === undefined ? undefined : String(type)))
      res.header('content-security-policy', API_CSP);
    if (o.appUrl().startsWith('https:') || req.protocol === 'https')
      res.header('strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
  });
}

/**
 * Where the browser reaches the blob store itself: none for the local store (same origin); for S3 the
 * endpoint's origin (S3_ENDPOINT), else AWS's path-style and virtual-hosted origins of the bucket.
 */
export function blobOrigins(config: {
  blobStore: 'local' | 's3';
  s3: { endpoint: string | null; region: string; bucket: string };
}): string[] {
  if (config.blobStore !== 's3') return [];
  if (config.s3.endpoint) return [new URL(config.s3.endpoint).origin];
  return [`https://s3.${config.s3.region}.amazonaws.com`, `https://${config.s3.bucket}.s3.${config.s3.region}.amazonaws.com`];
}
