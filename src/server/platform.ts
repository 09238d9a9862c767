import { execFile } from 'node:child_process';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type PgBoss from 'pg-boss';
import { describeMissingFeature, type HealthInfo } from '../contract';
import type { PaymentProvider } from './adapters/billing/paymentProvider';
import { LocalPaymentProvider } from './adapters/billing/localProvider';
import { StripePaymentProvider } from './adapters/billing/stripeProvider';
import type { BlobStore } from './adapters/blobs/blobStore';
import { LocalBlobStore } from './adapters/blobs/localBlobStore';
import { S3BlobStore } from './adapters/blobs/s3BlobStore';
import { openDatabase, type Database } from './adapters/db/database';
import { keepStatistics } from './adapters/db/statistics';
import { outboxMailer, smtpMailer, type Mailer } from './adapters/mail/mailer';
import { missingMediaTools } from './adapters/media/ffprobe';
import { setBackgroundIdle, startToolSpawner, stopToolSpawner } from './adapters/process/tools';
import { startEgressProxy } from './adapters/security/egressProxy';
import { TokenSigner } from './adapters/security/tokens';
import { createLogger } from './app';
import type { Config } from './config';
import { migrateToLatest } from './db/migrate';
import { loadDemoItems } from './demo';
import { loadIndexModels } from './models';
import type { DemoItem } from './modules/libraries/library.service';
import type { JobQueue } from './modules/ports';
import { loadSigningSecret } from './secrets';

type Models = Awaited<ReturnType<typeof loadIndexModels>>;

/**
 * The adapters every module is built on, each made once: database (migrated), signing keys, mail,
 * blob store, payment provider, the models, the egress proxy link import goes out through, and the
 * job queue's port (the queue itself starts after HTTP is built: `attachQueue`). `close` stops them
 * in reverse order of opening, with whatever was registered through `onClose` in between.
 */
export interface Platform {
  config: Config;
  log: FastifyBaseLogger;
  database: Database;
  db: Database['db'];
  tokens: TokenSigner;
  /** The key `npm run admin` uses to reach this process. */
  adminKey: string;
  mailer: Mailer;
  blobs: BlobStore;
  provider: PaymentProvider;
  demoItems: DemoItem[];
  models: Models;
  /** What the indexer can compute here (as `GET /health` answers). */
  health(): Omit<HealthInfo, 'ok'>;
  /** Link import reaches the network only through this proxy, which refuses private addresses. */
  egress: { url: string; allowLoopback: Set<string> };
  /** Where jobs keep their scratch files. */
  workDir: string;
  queue: JobQueue;
  /** Connects the queue port to the started queue and the workers it wakes. */
  attachQueue(boss: PgBoss, wake?: (name: string) => void): void;
  /** Set as the database starts closing: the queue then sends it nothing more. */
  databaseClosing(): boolean;
  /** Runs `fn` when the server closes, before everything registered earlier. */
  onClose(fn: () => Promise<void> | void): void;
  close(): Promise<void>;
  /** Embedded PGlite's planner statistics keeper, or null. */
  statistics: { check(): Promise<void> | void } | null;
}

/** Opens the platform from configuration. On a failure, whatever it opened is closed again. */
export async function openPlatform(config: Config): Promise<Platform> {
  setBackgroundIdle(config.backgroundIdle);
  // Tools (ffmpeg, pocketsphinx, yt-dlp) are started by a small helper process: a fork of this one,
  // once it holds the database and the models, stalls the event loop (adapters/process/tools.ts).
  const spawner = await startToolSpawner().then(
    () => true,
    () => false, // tools are then spawned from here
  );
  const stopSpawner = () => (spawner ? stopToolSpawner() : undefined);
  const log = createLogger(config);
  // The models (their threads, WordNet) load while the database starts: each takes seconds, the
  // database in its own thread, so together they take the longer of the two, not the sum.
  const modelsLoading = loadIndexModels(config.modelsDir, log, config.modelsUrl);
  modelsLoading.catch(() => undefined); // its failure is the boot's, where it is awaited below
  const closeModels = () =>
    modelsLoading.then(
      (m) => m.close(),
      () => undefined,
    );
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl }).catch(async (err: unknown) => {
    await closeModels();
    stopSpawner();
    throw err;
  });
  let databaseClosing = false;
  const cleanup: Array<() => Promise<void> | void> = [
    stopSpawner,
    () => {
      databaseClosing = true;
      return database.close();
    },
    closeModels,
  ];
  const close = async () => {
    for (const fn of cleanup.reverse()) await fn();
  };
  try {
    await migrateToLatest(database.db as never);
    const secret = loadSigningSecret(config.dataDir, config.jwtSecret);
    const tokens = new TokenSigner(secret);
    // Embedded PGlite never analyzes on its own (statistics.ts): its owner keeps the planner informed,
    // first once the server has started, then every minute.
    const statistics =
      database.kind === 'pglite'
        ? keepStatistics(database.executeSql, {
            onAnalyzed: (tables) => log.debug({ tables }, 'planner statistics refreshed'),
            onError: (err) => log.warn({ err }, 'planner statistics could not be refreshed'),
          })
        : null;
    if (statistics) cleanup.push(() => statistics.stop());
    const mailer: Mailer = config.smtpUrl
      ? smtpMailer(config.smtpUrl, config.mailFrom)
      : outboxMailer(config.dataDir, config.mailFrom, log);
    cleanup.push(() => mailer.close());
    const blobs: BlobStore =
      config.blobStore === 's3'
        ? new S3BlobStore({
            endpoint: config.s3.endpoint ?? undefined,
            region: config.s3.region,
            bucket: config.s3.bucket,
            accessKeyId: config.s3.accessKeyId ?? undefined,
            secretAccessKey: config.s3.secretAccessKey ?? undefined,
            forcePathStyle: config.s3.forcePathStyle,
          })
        : new LocalBlobStore(path.join(config.dataDir, 'blobs'), secret, () => config.appUrl);
    const demoItems = await loadDemoItems(blobs, config.demoDir);
    const provider: PaymentProvider = config.stripeSecretKey
      ? new StripePaymentProvider(config.stripeSecretKey, config.stripeWebhookSecret)
      : new LocalPaymentProvider(tokens, () => config.appUrl);

    // The queue starts after HTTP is built; services reach it through this port.
    const queueRef: { boss?: PgBoss; wake?: (name: string) => void } = {};
    const queue: JobQueue = {
      async send(name, data, opts) {
        await queueRef.boss!.send(name, data, opts?.singletonKey ? { singletonKey: opts.singletonKey } : {});
        queueRef.wake?.(name); // this process's workers of that queue take it now, not at their next poll
      },
    };

    const models = await modelsLoading;
    const toolsMissing = missingMediaTools();
    if (toolsMissing) log.warn(`${toolsMissing}: media cannot be indexed until it is installed`);
    const health = () => ({
      capabilities: [...(toolsMissing ? [] : ['media']), ...models.capabilities],
      off: [...(toolsMissing ? [toolsMissing] : []), ...models.missing].map(describeMissingFeature),
      supportChat:
        config.intercomAppId && config.intercomSecret && config.intercomWidgetUrl
          ? { appId: config.intercomAppId, scriptUrl: config.intercomWidgetUrl }
          : null,
    });

    const allowLoopback = new Set(config.linkImportTestLoopback);
    execFile(config.ytDlpPath, ['--version'], { timeout: 20_000 }, (err) => {
      if (err)
        log.warn(`link import: ${config.ytDlpPath} does not run (apt-get install yt-dlp, or set YTDLP_PATH): links cannot be imported`);
    });
    const egress = await startEgressProxy({ allow: allowLoopback });
    cleanup.push(() => egress.close());

    return {
      config,
      log,
      database,
      db: database.db,
      tokens,
      adminKey: tokens.mac('admin-bridge'),
      mailer,
      blobs,
      provider,
      demoItems,
      models,
      health,
      egress: { url: egress.url, allowLoopback },
      workDir: path.join(config.dataDir, 'work'),
      queue,
      attachQueue(boss, wake) {
        queueRef.boss = boss;
        queueRef.wake = wake;
      },
      databaseClosing: () => databaseClosing,
      onClose: (fn) => void cleanup.push(fn),
      close,
      statistics,
    };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
