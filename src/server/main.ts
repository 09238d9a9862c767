import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import { openDatabase, type Database } from './adapters/db/database';
import { keepStatistics } from './adapters/db/statistics';
import { outboxMailer, smtpMailer, type Mailer } from './adapters/mail/mailer';
import { startQueue } from './adapters/queue/queue';
import { argon2Hasher } from './adapters/security/passwords';
import { TokenSigner } from './adapters/security/tokens';
import { buildHttpApp, createLogger } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { migrateToLatest } from './db/migrate';
import { accountCleanupJob } from './modules/accounts/accountCleanup.job';
import { registerJobs, requeueOrphanedJobs, type JobDefinition } from './jobs/registry';
import { JobLeases } from './jobs/leases';
import { INGEST_QUEUES, ingestJobs } from './modules/ingest/ingest.job';
import { uploadExpiryJob } from './modules/upload/uploadExpiry.job';
import { blobSweepJob } from './modules/storage/blobSweep.job';
import { BlobRefsRepository } from './modules/storage/blobRefs.repository';
import { BlobSweepService } from './modules/storage/blobSweep.service';
import type { BlobStore } from './adapters/blobs/blobStore';
import { LocalBlobStore } from './adapters/blobs/localBlobStore';
import { S3BlobStore } from './adapters/blobs/s3BlobStore';
import { missingMediaTools, probe, probeQuick, remoteDuration, stillWebp } from './adapters/media/ffprobe';
import { extractAudio, extractKeyframes, makeHls, thumbnailStrip } from './adapters/media/ffmpeg';
import { setBackgroundIdle, startToolSpawner, stopToolSpawner } from './adapters/process/tools';
import { describeMissingFeature, type HealthInfo } from '../contract';
import { loadDemoItems } from './demo';
import { LibraryRepository } from './modules/libraries/library.repository';
import { MediaRepository } from './modules/libraries/media.repository';
import { UploadRepository } from './modules/upload/upload.repository';
import { Access } from './modules/libraries/access';
import { LibraryService } from './modules/libraries/library.service';
import type { JobQueue, StorageQuota } from './modules/ports';
import { UploadService } from './modules/upload/upload.service';
import { IndexRepository } from './modules/ingest/index.repository';
import { IngestService } from './modules/ingest/ingest.service';
import { SearchRepository } from './modules/search/search.repository';
import { SearchService } from './modules/search/search.service';
import { MomentTrimsRepository } from './modules/accounts/momentTrims.repository';
import { TranscriptRepository } from './modules/search/transcript.repository';
import { MomentTrimsService } from './modules/accounts/momentTrims.service';
import { TranscriptService } from './modules/search/transcript.service';
import { loadIndexModels } from './models';
import type { PaymentProvider } from './adapters/billing/paymentProvider';
import { LocalPaymentProvider } from './adapters/billing/localProvider';
import { StripePaymentProvider } from './adapters/billing/stripeProvider';
import { renewalJob } from './modules/billing/renewal.job';
import { BillingRepository } from './modules/billing/billing.repository';
import { LedgerRepository } from './modules/billing/ledger.repository';
import { BillingService } from './modules/billing/billing.service';
import { loadCatalog } from './modules/billing/catalog';
import { LedgerService } from './modules/billing/ledger.service';
import { CodeRepository } from './modules/accounts/code.repository';
import { RateRepository } from './modules/accounts/rate.repository';
import { SupportRepository } from './modules/support/support.repository';
import { UserRepository } from './modules/accounts/user.repository';
import { adminKeyFile, loadSigningSecret } from './secrets';
import { AccountService } from './modules/accounts/account.service';
import { renderCompilation, renderGif, RenderToolError } from './adapters/media/render';
import { RenderRepository } from './modules/render/render.repository';
import { RENDER_JOB, RenderService } from './modules/render/render.service';
import { renderExpiryJob, renderJob } from './modules/render/render.job';
import { startEgressProxy } from './adapters/security/egressProxy';
import { ytDlp } from './adapters/media/ytdlp';
import { ExternalService } from './modules/external/external.service';
import { EXTERNAL_MAX_BYTES, EXTERNAL_MAX_SECONDS } from '../contract';

export interface RunningServer {
  url: string;
  config: Config;
  app: FastifyInstance;
  database: Database;
  boss: PgBoss;
  accounts: AccountService;
  libraries: LibraryService;
  uploads: UploadService;
  blobs: BlobStore;
  billing: BillingService;
  ledger: LedgerService;
  renders: RenderService;
  external: ExternalService;
  /** The orphan-blob sweep (the `blobs.sweep` job runs it hourly). */
  blobSweep: BlobSweepService;
  /** What the indexer can compute here (as `GET /health` answers). */
  health(): Omit<HealthInfo, 'ok'>;
  close(): Promise<void>;
}

/**
 * Boots everything from configuration: database (+ migrations), queue, services, HTTP. `env`
 * overrides process.env, which tests use to start isolated servers.
 */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const config = loadConfig({ ...process.env, ...env });
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
  // Set as the database starts closing: the queue then sends it nothing more (see queueDb).
  let databaseClosing = false;
  const cleanup: Array<() => Promise<void> | void> = [
    stopSpawner,
    () => {
      databaseClosing = true;
      return database.close();
    },
    closeModels,
  ];
  const closeAll = async () => {
    for (const fn of cleanup.reverse()) await fn();
  };
  try {
    await migrateToLatest(database.db as never);
    const secret = loadSigningSecret(config.dataDir, config.jwtSecret);
    const tokens = new TokenSigner(secret);
    const adminKey = tokens.mac('admin-bridge');

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

    // The queue starts after HTTP is built; services reach it through this port.
    const queueRef: { boss?: PgBoss; wake?: (name: string) => void } = {};
    const queue: JobQueue = {
      async send(name, data, opts) {
        await queueRef.boss!.send(name, data, opts?.singletonKey ? { singletonKey: opts.singletonKey } : {});
        queueRef.wake?.(name); // this process's workers of that queue take it now, not at their next poll
      },
    };
    const users = new UserRepository(database.db);
    const mediaRepo = new MediaRepository(database.db);
    const uploadRepo = new UploadRepository(database.db);
    const libraryRepo = new LibraryRepository(database.db);
    const indexRepo = new IndexRepository(database.db);
    const access = new Access({ libraries: libraryRepo, media: mediaRepo });
    const libraries = new LibraryService({
      access,
      index: indexRepo,
      libraries: libraryRepo,
      media: mediaRepo,
      uploads: uploadRepo,
      blobs,
      queue,
      tokens,
      demoItems: () => demoItems,
    });
    const ledgerRepo = new LedgerRepository(database.db);
    const ledger = new LedgerService(ledgerRepo);
    const billingRepo = new BillingRepository(database.db);
    const provider: PaymentProvider = config.stripeSecretKey
      ? new StripePaymentProvider(config.stripeSecretKey, config.stripeWebhookSecret)
      : new LocalPaymentProvider(tokens, () => config.appUrl);
    const renderRepo = new RenderRepository(database.db);
    const billing = new BillingService({
      repo: billingRepo,
      users,
      ledger,
      ledgerRepo,
      media: mediaRepo,
      catalog: loadCatalog(config.billingProductsFile),
      provider,
      appUrl: () => config.appUrl,
      allowedRedirectHosts: config.allowedRedirectHosts,
      signupBonus: { credits: config.signupBonusCredits, days: config.signupBonusDays },
      chargesPending: async (userId) =>
        (await Promise.all([mediaRepo.chargesPending(userId), renderRepo.chargesPending(userId)])).reduce((a, b) => a + b),
    });
    const quota: StorageQuota = billing;
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
    const search = new SearchService({
      search: new SearchRepository(database.db),
      access,
      media: mediaRepo,
      models,
    });
    // Link import: yt-dlp reaches the network only through this proxy, which refuses private addresses.
    const allowLoopback = new Set(config.linkImportTestLoopback);
    execFile(config.ytDlpPath, ['--version'], { timeout: 20_000 }, (err) => {
      if (err)
        log.warn(`link import: ${config.ytDlpPath} does not run (apt-get install yt-dlp, or set YTDLP_PATH): links cannot be imported`);
    });
    const egress = await startEgressProxy({ allow: allowLoopback });
    cleanup.push(() => egress.close());
    const external = new ExternalService({
      library: libraries,
      access,
      media: mediaRepo,
      blobs,
      queue,
      quota,
      reader: ytDlp({
        bin: config.ytDlpPath,
        proxy: egress.url,
        insecureTls: allowLoopback.size > 0,
        maxBytes: EXTERNAL_MAX_BYTES,
        maxSeconds: EXTERNAL_MAX_SECONDS,
        peekTimeoutMs: 60_000,
        downloadTimeoutMs: 30 * 60_000,
      }),
      balance: (userId) => ledger.balance(userId),
      rates: new RateRepository(database.db),
      allowLoopback,
      workDir: path.join(config.dataDir, 'work', 'links'),
      durationOf: async (file) => {
        try {
          return (await probeQuick(file)).duration;
        } catch {
          return null;
        }
      },
      durationAt: (url) => remoteDuration(url, egress.url),
    });
    const ingest = new IngestService({
      media: mediaRepo,
      index: indexRepo,
      blobs,
      models,
      billing: {
        balance: (userId) => ledger.balance(userId),
        charge: async (userId, amount, key, reason) => void (await ledger.charge(userId, { amount, key, reason })),
      },
      tools: { probe, makeHls, thumbnailStrip, stillWebp, extractKeyframes, extractAudio },
      queue,
      workDir: path.join(config.dataDir, 'work'),
      download: (media, work, onProgress) => external.download(media, work, onProgress),
      log,
    });
    const uploads = new UploadService({
      library: libraries,
      access,
      media: mediaRepo,
      uploads: uploadRepo,
      blobs,
      queue,
      tokens,
      quota,
      quickDuration: async (input) => {
        try {
          const p = await probeQuick(input);
          return p.duration;
        } catch {
          return null;
        }
      },
    });
    const renders = new RenderService({
      renders: renderRepo,
      media: { owned: (userId, libraryId, mediaId) => access.media(userId, libraryId, mediaId), byId: (id) => mediaRepo.byId(id) },
      transcript: (mediaId) => indexRepo.transcript(mediaId),
      blobs,
      queue,
      credits: {
        balance: (userId) => ledger.balance(userId),
        charge: async (userId, amount, key, reason) => void (await ledger.charge(userId, { amount, key, reason })),
      },
      renderer: {
        compilation: renderCompilation,
        gif: renderGif,
        failureDetail: (err) => (err instanceof RenderToolError ? err.stderrTail : null),
      },
      workDir: path.join(config.dataDir, 'work'),
      log,
      waitMs: config.renderWaitMs,
    });
    const blobSweep = new BlobSweepService({
      blobs,
      refs: new BlobRefsRepository(database.db),
      workDirs: [path.join(config.dataDir, 'work'), path.join(config.dataDir, 'work', 'links')],
      log,
    });
    const accounts = new AccountService({
      users,
      codes: new CodeRepository(database.db),
      rates: new RateRepository(database.db),
      support: new SupportRepository(database.db),
      hasher: argon2Hasher,
      tokens,
      mailer,
      appUrl: () => config.appUrl,
      intercomSecret: config.intercomSecret,
      onUserCreated: [(user) => billing.grantSignupBonus(user), (user) => libraries.provisionUser(user)],
    });
    const app = await buildHttpApp(
      config,
      log,
      {
        accounts,
        libraries,
        uploads,
        blobs,
        tokens,
        billing,
        provider,
        transcripts: new TranscriptService({ access, transcripts: new TranscriptRepository(database.db) }),
        trims: new MomentTrimsService(new MomentTrimsRepository(database.db)),
        search,
        renders,
        external,
        health,
      },
      adminKey,
    );
    cleanup.push(() => app.close());
    // Render requests waiting for their output answer at once (202, the client polls elsewhere) rather
    // than keep the HTTP server open, or query the database after it closes (cleanup runs in reverse).
    cleanup.push(() => renders.stopWaiting());

    if (config.role !== 'api') {
      const n = await ingest.backfillShotTerms();
      if (n) log.info({ media: n }, 'shot index written for media indexed before it existed');
      const spoken = await ingest.backfillSpokenForms();
      if (spoken) log.info({ segments: spoken }, 'transcript segments indexed in their spoken forms');
    }

    const boss = await startQueue(
      database,
      (err) => app.log.error({ err }, 'queue error'),
      () => databaseClosing,
    );
    queueRef.boss = boss;
    // Cleanup runs in reverse: stop the queue, then wait for handlers it gave up on, then the rest.
    let drainJobs = (_ms: number): Promise<void> => Promise.resolve();
    cleanup.push(() => drainJobs(15_000));
    cleanup.push(() => boss.stop({ graceful: true, wait: true, timeout: 10_000 }));
    if (database.kind === 'pglite' && config.role !== 'api') {
      const n = await requeueOrphanedJobs(database.executeSql, [...INGEST_QUEUES, RENDER_JOB]);
      if (n) log.info({ jobs: n }, 'resumed jobs cut off by an earlier stop');
      const f = await uploads.reopenCutOffFinishes(new Date());
      if (f) log.info({ uploads: f }, 'reopened upload finishes cut off by an earlier stop');
    }
    // Several workers on one PostgreSQL: long jobs run under leases, so a dead worker's jobs go to another.
    let leases: JobLeases | null = null;
    if (database.kind === 'postgres' && config.role !== 'api') {
      const jobLeases = new JobLeases(database.executeSql, config.jobLeaseTtlMs, (jobs) =>
        log.warn({ jobs }, 'jobs handed back: their worker stopped answering'),
      );
      leases = jobLeases;
      jobLeases.start();
      cleanup.push(() => jobLeases.stop());
    }
    const jobs = await registerJobs(
      boss,
      [
        accountCleanupJob(accounts),
        ...ingestJobs(ingest),
        renderJob(renders, config.renderWorkers) as JobDefinition,
        renderExpiryJob(renders),
        uploadExpiryJob(uploads),
        renewalJob(billing),
        blobSweepJob(blobSweep),
      ],
      config.role !== 'api',
      leases,
      database.kind === 'pglite', // the only process: every job is sent here, waking its workers
    );
    drainJobs = jobs.drain;
    queueRef.wake = jobs.wake;
    if (config.role === 'worker') log.info({ pid: process.pid }, 'worker ready');

    let url = config.appUrl;
    if (config.role !== 'worker') {
      const address = await app.listen({ port: config.port, host: config.host });
      const port = Number(new URL(address).port);
      if (!env.APP_URL && !process.env.APP_URL && config.port === 0) url = config.appUrl = `http://${config.host}:${port}`;
      // Lets `npm run admin` reach this process while it holds the data directory. Written whole
      // and renamed into place, so a reader never sees half of it.
      const bridge = adminKeyFile(config.dataDir);
      fs.writeFileSync(`${bridge}.${process.pid}`, JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, adminKey }), {
        mode: 0o600,
      });
      fs.renameSync(`${bridge}.${process.pid}`, bridge);
      cleanup.push(() => fs.rmSync(adminKeyFile(config.dataDir), { force: true }));
    }
    void statistics?.check();
    return {
      url,
      config,
      app,
      database,
      boss,
      accounts,
      libraries,
      uploads,
      blobs,
      billing,
      ledger,
      renders,
      external,
      blobSweep,
      health,
      close: closeAll,
    };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }
}

async function runCli() {
  let server: RunningServer;
  try {
    server = await startServer();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
  const { config } = server;
  const web = fs.existsSync(path.join(config.webDir, 'index.html')) ? '' : ' (web app not built: run `npm run build`)';
  const off = server.health().off.filter((f) => !f.optional);
  const indexing = off.length
    ? `these features are off:\n${off.map((f) => `    - ${f.label}: ${f.reason}`).join('\n')}`
    : 'every feature on';
  console.log(
    `\nClipseek is running at ${server.url}${web}\n  data: ${config.dataDir}${config.databaseUrl ? ' (PostgreSQL via DATABASE_URL)' : ' (embedded PGlite)'}\n  mail: ${config.smtpUrl ? 'SMTP' : `written to ${path.join(config.dataDir, 'mail')}, one file a message (links stay out of the log)`}\n  indexing: ${indexing}\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info(`${signal}: shutting down`);
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void runCli();
