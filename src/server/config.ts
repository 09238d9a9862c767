import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { RENDER_QUEUE_CONCURRENCY, RENDER_WAIT_MS } from '../contract/rendering';
import { JOB_LEASE_TTL_MS } from './jobs/leases';
import { CHUNKED_AFTER_SECONDS, chunkSecondsProblem, INGEST_CHUNK_SECONDS, type Chunking } from './modules/ingest/chunks';

/** Configuration, parsed and validated once at boot. A bad value stops the start naming the variable. */
export interface Config {
  port: number;
  host: string;
  appUrl: string;
  dataDir: string;
  databaseUrl: string | null;
  jwtSecret: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  intercomSecret: string | null;
  /** The support-chat widget: shown only when the app id and the secret are both set. */
  intercomAppId: string | null;
  intercomWidgetUrl: string | null;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  role: 'all' | 'api' | 'worker';
  webDir: string;
  /** The demo library's sample videos (`DEMO_DIR`, default assets/demo); an empty folder gives an empty demo library. */
  demoDir: string;
  trustProxy: boolean;
  /** Renders and indexing under Linux SCHED_IDLE (BACKGROUND_IDLE, default true): they get only the CPU requests leave. */
  backgroundIdle: boolean;
  blobStore: 'local' | 's3';
  s3: {
    endpoint: string | null;
    region: string;
    bucket: string;
    accessKeyId: string | null;
    secretAccessKey: string | null;
    forcePathStyle: boolean;
  };
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  billingProductsFile: string | null;
  signupBonusCredits: number;
  signupBonusDays: number;
  /** Hosts the app may send people to (payment pages); the app's own origin is always allowed. */
  allowedRedirectHosts: string[];
  /** Folder of the indexer's model files (see models/README.md). */
  modelsDir: string;
  /** Where missing model files are fetched from on start (a mirror of the models folder); null: never fetch. */
  modelsUrl: string | null;
  /** Renders this process runs at once (the queue caps all processes together at 16). */
  renderWorkers: number;
  /** How long a render POST waits for its output before answering 202 (then the client polls). */
  renderWaitMs: number;
  /** With PostgreSQL: how long a worker may stay silent before its ingest and render jobs go to another (jobs/leases.ts). */
  jobLeaseTtlMs: number;
  /** Long media are indexed in chunks of time (INGEST_CHUNK_SECONDS, CHUNKED_AFTER_SECONDS; modules/ingest/chunks.ts). */
  chunking: Chunking;
  /** yt-dlp, which reads and downloads links (YTDLP_PATH, else /usr/bin/yt-dlp from Debian's package, else PATH). */
  ytDlpPath: string;
  /**
   * Tests only (LINK_IMPORT_TEST_LOOPBACK): loopback `host:port` pairs link import may reach, with
   * certificate checks off for them (the tests' pages use a throwaway certificate). Empty in use.
   */
  linkImportTestLoopback: string[];
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`Invalid configuration: ${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

const optional = (env: NodeJS.ProcessEnv, name: string) => (env[name] ? env[name] : null);

/** INTERCOM_WIDGET_URL (an http(s) URL), else Intercom's own script for INTERCOM_APP_ID. */
function widgetUrl(env: NodeJS.ProcessEnv): string | null {
  const appId = optional(env, 'INTERCOM_APP_ID');
  const url = optional(env, 'INTERCOM_WIDGET_URL') ?? (appId ? `https://widget.intercom.io/widget/${encodeURIComponent(appId)}` : null);
  if (url && !/^https?:\/\/[^/\s]+\/\S*$/.test(url)) throw new Error(`INTERCOM_WIDGET_URL must be an http(s) URL, got ${url}`);
  return url;
}

const url = (name: string, value: string, protocols: string[]) => {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new ConfigError(name, `must be a URL (got '${value}')`);
  }
  if (!protocols.includes(u.protocol)) throw new ConfigError(name, `must use ${protocols.join(' or ')} (got '${u.protocol}')`);
  return value;
};

const whole = (minimum: number, def: number) =>
  Type.Number({ minimum, multipleOf: 1, default: def, description: `must be a whole number >= ${minimum}` });
const choice = <T extends string>(values: readonly T[], def: T) =>
  Type.Enum(values, { default: def, description: `must be one of ${values.join(', ')}` });
const flag = (def: boolean) => choice(['true', 'false'], String(def) as 'true' | 'false');

/** The variables with a form of their own (URLs and paths are checked below): parsed, defaulted and checked at once. */
const EnvSchema = Type.Object({
  PORT: Type.Number({ minimum: 0, maximum: 65535, multipleOf: 1, default: 8080, description: 'must be a port number 0-65535' }),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32, description: 'must be at least 32 characters' })),
  TRUST_PROXY: flag(false),
  BACKGROUND_IDLE: flag(true),
  BLOB_STORE: choice(['local', 's3'], 'local'),
  S3_FORCE_PATH_STYLE: flag(true),
  LOG_LEVEL: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info'),
  ROLE: choice(['all', 'api', 'worker'], 'all'),
  SIGNUP_BONUS_CREDITS: whole(0, 20_000),
  SIGNUP_BONUS_DAYS: whole(1, 30),
  RENDER_WORKERS: whole(1, Math.max(1, Math.min(RENDER_QUEUE_CONCURRENCY, os.availableParallelism()))),
  RENDER_WAIT_MS: whole(0, RENDER_WAIT_MS),
  JOB_LEASE_TTL_MS: whole(1000, JOB_LEASE_TTL_MS),
  INGEST_CHUNK_SECONDS: whole(1, INGEST_CHUNK_SECONDS),
  CHUNKED_AFTER_SECONDS: whole(0, CHUNKED_AFTER_SECONDS),
});

/** The environment through EnvSchema (an empty variable is an unset one); the first bad value stops the start, named. */
function parseEnv(env: NodeJS.ProcessEnv): Static<typeof EnvSchema> {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = Value.Convert(EnvSchema, Value.Default(EnvSchema, given));
  const [error] = Value.Errors(EnvSchema, parsed);
  if (!error) return parsed as Static<typeof EnvSchema>;
  const name = error.instancePath.slice(1) as keyof typeof EnvSchema.properties;
  const got = name === 'JWT_SECRET' ? '' : ` (got '${given[name]}')`;
  throw new ConfigError(name, `${(EnvSchema.properties[name] as unknown as { description: string }).description}${got}`);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const e = parseEnv(env);
  const port = e.PORT;
  const host = env.HOST || '127.0.0.1';
  const shownHost = host === '0.0.0.0' || host === '::' ? 'localhost' : host;
  const appUrl = url('APP_URL', env.APP_URL || `http://${shownHost}:${port}`, ['http:', 'https:']).replace(/\/$/, '');
  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);
  const smtpUrl = optional(env, 'SMTP_URL');
  if (smtpUrl) url('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']);
  const chunkProblem = chunkSecondsProblem(e.INGEST_CHUNK_SECONDS);
  if (chunkProblem) throw new ConfigError('INGEST_CHUNK_SECONDS', `${chunkProblem} (got '${e.INGEST_CHUNK_SECONDS}')`);
  const blobStore = e.BLOB_STORE;
  const bucket = env.S3_BUCKET ?? '';
  if (blobStore === 's3' && !bucket) throw new ConfigError('S3_BUCKET', 'is required when BLOB_STORE=s3');
  const s3Endpoint = optional(env, 'S3_ENDPOINT');
  if (s3Endpoint) url('S3_ENDPOINT', s3Endpoint, ['http:', 'https:']);
  const stripeSecretKey = optional(env, 'STRIPE_SECRET_KEY');
  const testLoopback = (env.LINK_IMPORT_TEST_LOOPBACK ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  for (const h of testLoopback)
    if (!/^(127\.0\.0\.1|\[::1\]|localhost):\d{1,5}$/.test(h))
      throw new ConfigError('LINK_IMPORT_TEST_LOOPBACK', `must list loopback host:port pairs such as 127.0.0.1:8443 (got '${h}')`);
  return {
    ytDlpPath: env.YTDLP_PATH || (fs.existsSync('/usr/bin/yt-dlp') ? '/usr/bin/yt-dlp' : 'yt-dlp'),
    linkImportTestLoopback: testLoopback,
    stripeSecretKey,
    stripeWebhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET'),
    billingProductsFile: optional(env, 'BILLING_PRODUCTS_FILE'),
    signupBonusCredits: e.SIGNUP_BONUS_CREDITS,
    signupBonusDays: e.SIGNUP_BONUS_DAYS,
    allowedRedirectHosts: (env.ALLOWED_REDIRECT_HOSTS ?? 'checkout.stripe.com,billing.stripe.com,invoice.stripe.com,pay.stripe.com')
      .split(',')
      .map((h) => h.trim())
      .filter(Boolean),
    modelsDir: defaultModelsDir(env),
    renderWorkers: e.RENDER_WORKERS,
    renderWaitMs: e.RENDER_WAIT_MS,
    jobLeaseTtlMs: e.JOB_LEASE_TTL_MS,
    chunking: { seconds: e.INGEST_CHUNK_SECONDS, after: e.CHUNKED_AFTER_SECONDS },
    modelsUrl: env.MODELS_URL ? url('MODELS_URL', env.MODELS_URL, ['http:', 'https:']) : null,
    blobStore,
    s3: {
      endpoint: s3Endpoint,
      region: env.S3_REGION || 'us-east-1',
      bucket,
      accessKeyId: optional(env, 'S3_ACCESS_KEY_ID'),
      secretAccessKey: optional(env, 'S3_SECRET_ACCESS_KEY'),
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    },
    port,
    host,
    appUrl,
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl,
    jwtSecret: e.JWT_SECRET ?? null,
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Clipseek <no-reply@clipseek.local>',
    intercomSecret: optional(env, 'INTERCOM_SECRET'),
    intercomAppId: optional(env, 'INTERCOM_APP_ID'),
    intercomWidgetUrl: widgetUrl(env),
    logLevel: e.LOG_LEVEL,
    role: e.ROLE,
    webDir: path.resolve(env.WEB_DIR || 'dist'),
    demoDir: demoDir(env),
    trustProxy: e.TRUST_PROXY === 'true',
    backgroundIdle: e.BACKGROUND_IDLE === 'true',
  };
}

function demoDir(env: Record<string, string | undefined>) {
  if (!env.DEMO_DIR) return path.resolve(import.meta.dirname, '../../assets/demo');
  const dir = path.resolve(env.DEMO_DIR);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory())
    throw new ConfigError('DEMO_DIR', `must be an existing folder (${env.DEMO_DIR} is not one)`);
  return dir;
}

/** MODELS_DIR, else the project's own `models/` folder (committed; MODELS_URL adds the optional CLIP pair to it). */
function defaultModelsDir(env: Record<string, string | undefined>) {
  return env.MODELS_DIR ? path.resolve(env.MODELS_DIR) : path.join(import.meta.dirname, '../../models');
}
