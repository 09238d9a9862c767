import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { HealthInfo } from '../contract';
import type { Database } from './adapters/db/database';
import type { BlobStore } from './adapters/blobs/blobStore';
import { startQueue } from './adapters/queue/queue';
import { buildHttpApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { JobLeases } from './jobs/leases';
import { registerJobs, requeueOrphanedJobs } from './jobs/registry';
import { accountsModule } from './modules/accounts/accounts.module';
import type { AccountService } from './modules/accounts/account.service';
import { billingModule, type PendingCharges } from './modules/billing/billing.module';
import type { BillingService } from './modules/billing/billing.service';
import type { LedgerService } from './modules/billing/ledger.service';
import { deliveryModule } from './modules/delivery/delivery.module';
import { externalModule } from './modules/external/external.module';
import type { ExternalService } from './modules/external/external.service';
import { ingestModule } from './modules/ingest/ingest.module';
import type { IngestService } from './modules/ingest/ingest.service';
import { librariesModule } from './modules/libraries/libraries.module';
import type { LibraryService } from './modules/libraries/library.service';
import type { ServerModule } from './modules/module';
import { renderModule } from './modules/render/render.module';
import type { RenderService } from './modules/render/render.service';
import { searchModule } from './modules/search/search.module';
import { storageModule } from './modules/storage/storage.module';
import type { BlobSweepService } from './modules/storage/blobSweep.service';
import { supportModule } from './modules/support/support.module';
import { uploadModule } from './modules/upload/upload.module';
import type { UploadService } from './modules/upload/upload.service';
import { openPlatform } from './platform';
import { adminKeyFile } from './secrets';

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
  ingest: IngestService;
  external: ExternalService;
  /** The orphan-blob sweep (the `blobs.sweep` job runs it hourly). */
  blobSweep: BlobSweepService;
  /** What the indexer can compute here (as `GET /health` answers). */
  health(): Omit<HealthInfo, 'ok'>;
  close(): Promise<void>;
}

/**
 * Boots everything from configuration: the platform's adapters (database and migrations, keys,
 * mail, blobs, models), the modules composed on them, HTTP, then the queue and its workers. `env`
 * overrides process.env, which tests use to start isolated servers.
 */
export async function startServer(env: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const config = loadConfig({ ...process.env, ...env });
  const p = await openPlatform(config);
  const { log, database } = p;
  try {
    const accounts = accountsModule(p);
    const libraries = librariesModule(p);
    const pending: PendingCharges[] = [libraries.media];
    const billing = billingModule(p, { users: accounts.users, media: libraries.media, pending });
    accounts.onUserCreated.push(
      (user) => billing.billing.grantSignupBonus(user),
      (user) => libraries.libraries.provisionUser(user),
    );
    const quota = billing.billing;
    const uploads = uploadModule(p, libraries, quota);
    const external = externalModule(p, libraries, { quota, credits: billing.credits, rates: accounts.rates });
    const ingest = ingestModule(p, libraries, { credits: billing.credits, external: external.external });
    const search = searchModule(p, libraries);
    const renders = renderModule(p, libraries, billing.credits);
    pending.push(renders.pending);
    const storage = storageModule(p);
    const modules: ServerModule[] = [
      accounts.module,
      libraries.module(accounts.accounts, uploads.uploads),
      deliveryModule(p, {
        accounts: accounts.accounts,
        libraries: libraries.libraries,
        uploads: uploads.uploads,
        transcripts: search.transcripts,
      }),
      search.module(accounts.accounts),
      renders.module(accounts.accounts),
      external.module(accounts.accounts),
      billing.module(accounts.accounts),
      supportModule(p, accounts.accounts),
      uploads.module,
      ingest.module,
      storage.module,
    ];

    const app = await buildHttpApp(config, log, { health: p.health, routes: modules.flatMap((m) => m.routes ?? []) });
    p.onClose(() => app.close());
    // Render requests waiting for their output answer at once (202, the client polls elsewhere) rather
    // than keep the HTTP server open, or query the database after it closes (cleanup runs in reverse).
    p.onClose(() => renders.renders.stopWaiting());
    const runsJobs = config.role !== 'api';
    if (runsJobs) for (const m of modules) await m.backfill?.();

    const boss = await startQueue(database, (err) => app.log.error({ err }, 'queue error'), p.databaseClosing);
    p.attachQueue(boss);
    // Cleanup runs in reverse: stop the queue, then wait for handlers it gave up on, then the rest.
    let drainJobs = (_ms: number): Promise<void> => Promise.resolve();
    p.onClose(() => drainJobs(15_000));
    p.onClose(() => boss.stop({ graceful: true, wait: true, timeout: 10_000 }));
    if (database.kind === 'pglite' && runsJobs) {
      const n = await requeueOrphanedJobs(
        database.executeSql,
        modules.flatMap((m) => m.resumableQueues ?? []),
      );
      if (n) log.info({ jobs: n }, 'resumed jobs cut off by an earlier stop');
      for (const m of modules) await m.resume?.();
    }
    // Several workers on one PostgreSQL: long jobs run under leases, so a dead worker's jobs go to another.
    let leases: JobLeases | null = null;
    if (database.kind === 'postgres' && runsJobs) {
      const jobLeases = new JobLeases(database.executeSql, config.jobLeaseTtlMs, (jobs) =>
        log.warn({ jobs }, 'jobs handed back: their worker stopped answering'),
      );
      leases = jobLeases;
      jobLeases.start();
      p.onClose(() => jobLeases.stop());
    }
    const jobs = await registerJobs(
      boss,
      modules.flatMap((m) => m.jobs ?? []),
      runsJobs,
      leases,
      database.kind === 'pglite', // the only process: every job is sent here, waking its workers
    );
    drainJobs = jobs.drain;
    p.attachQueue(boss, jobs.wake);
    if (config.role === 'worker') log.info({ pid: process.pid }, 'worker ready');

    const url = config.role === 'worker' ? config.appUrl : await listen(app, config, env, p);
    void p.statistics?.check();
    return {
      url,
      config,
      app,
      database,
      boss,
      accounts: accounts.accounts,
      libraries: libraries.libraries,
      uploads: uploads.uploads,
      blobs: p.blobs,
      billing: billing.billing,
      ledger: billing.ledger,
      renders: renders.renders,
      ingest: ingest.ingest,
      external: external.external,
      blobSweep: storage.blobSweep,
      health: p.health,
      close: p.close,
    };
  } catch (err) {
    await p.close().catch(() => undefined);
    throw err;
  }
}

/**
 * Starts answering HTTP; returns the app's URL (with the port picked when PORT=0 and no APP_URL was
 * given). Writes the admin bridge file `npm run admin` reaches this process through.
 */
async function listen(
  app: FastifyInstance,
  config: Config,
  env: Record<string, string | undefined>,
  p: { adminKey: string; onClose(fn: () => void): void },
) {
  const address = await app.listen({ port: config.port, host: config.host });
  const port = Number(new URL(address).port);
  if (!env.APP_URL && !process.env.APP_URL && config.port === 0) config.appUrl = `http://${config.host}:${port}`;
  // Written whole and renamed into place, so a reader never sees half of it.
  const bridge = adminKeyFile(config.dataDir);
  fs.writeFileSync(
    `${bridge}.${process.pid}`,
    JSON.stringify({ pid: process.pid, url: `http://127.0.0.1:${port}`, adminKey: p.adminKey }),
    {
      mode: 0o600,
    },
  );
  fs.renameSync(`${bridge}.${process.pid}`, bridge);
  p.onClose(() => fs.rmSync(adminKeyFile(config.dataDir), { force: true }));
  return config.appUrl;
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
