import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createPinoLogger, redactUrl } from './logging';
import type { Config } from './config';
import { accountRoutes } from './http/account.routes';
import { adminRoutes } from './http/admin.routes';
import { registerCodecs } from './http/codec';
import { ok, reply } from './http/envelope';
import { registerErrorHandler } from './http/errorHandler';
import { registerWebApp } from './http/static';
import { blobOrigins, registerSecurityHeaders } from './http/securityHeaders';
import { API, isUuid, MSG, type HealthInfo } from '../contract';
import { AppError } from './errors';
import type { BlobStore } from './adapters/blobs/blobStore';
import type { TokenSigner } from './adapters/security/tokens';
import { blobRoutes } from './http/blob.routes';
import { billingRoutes } from './http/billing.routes';
import { previewRoutes } from './http/preview.routes';
import { searchRoutes } from './http/search.routes';
import type { SearchService } from './services/search.service';
import type { IndexRepository } from './repositories/index.repository';
import type { PaymentProvider } from './adapters/billing/paymentProvider';
import type { BillingRepository } from './repositories/billing.repository';
import type { UserRepository } from './repositories/user.repository';
import type { BillingService } from './services/billing.service';
import { libraryRoutes } from './http/library.routes';
import { renderRoutes } from './http/render.routes';
import type { RenderService } from './services/render.service';
import { externalRoutes } from './http/external.routes';
import type { ExternalService } from './services/external.service';
import type { AccountService } from './services/account.service';
import type { LibraryService } from './services/library.service';
import type { UploadService } from './services/upload.service';
import type { TranscriptService } from './services/transcript.service';
import { transcriptRoutes } from './http/transcript.routes';

export interface Services {
  accounts: AccountService;
  libraries: LibraryService;
  uploads: UploadService;
  blobs: BlobStore;
  tokens: TokenSigner;
  billing: BillingService;
  provider: PaymentProvider;
  billingRepo: BillingRepository;
  users: UserRepository;
  index: IndexRepository;
  transcripts: TranscriptService;
  search: SearchService;
  renders: RenderService;
  external: ExternalService;
  /** What the indexer can compute here, for `GET /health`. */
  health: () => Omit<HealthInfo, 'ok'>;
}

/** A registered route: its method and URL pattern (`:name` for a path parameter). */
export interface RouteEntry {
  method: string;
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, HEAD included; the authorization and fuzz tests walk it. */
    routeTable: RouteEntry[];
  }
}

/** Ids named in the path (`id`, `…Id`) or the query (`libraryId`, `mediaId`, `folderId`, `renderId`). */
const isIdName = (name: string) => name === 'id' || name.endsWith('Id');

/**
 * Every id a route takes is a UUID: anything else is answered 404 before a service or the database
 * sees it (PostgreSQL would refuse to compare it with a uuid column and the call would fail with 500).
 * Routes with a schema of their own have already answered 400 by then.
 */
function assertIds(params: unknown, query: unknown) {
  for (const source of [params, query]) {
    if (!source || typeof source !== 'object') continue;
    for (const [name, value] of Object.entries(source as Record<string, unknown>)) {
      if (!isIdName(name)) continue;
      const values = Array.isArray(value) ? value : [value];
      if (!values.every(isUuid)) throw new AppError('not_found', MSG.notFound);
    }
  }
}

/** Builds the HTTP app: codecs, one error handler, the API routes, then the web app. */
export const createLogger = (config: Config): FastifyBaseLogger => createPinoLogger(config.logLevel);

export async function buildHttpApp(config: Config, log: FastifyBaseLogger, services: Services, adminKey: string): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: log,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    // Per-request lines are logged at debug by the onResponse hook below, not at info.
    logController: new LogController({ disableRequestLogging: true }),
  });
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeTable.push({ method, url: r.url });
  });
  registerCodecs(app);
  registerErrorHandler(app);
  app.addHook('preHandler', async (req) => assertIds(req.params, req.query));
  app.addHook('onResponse', async (req, res) => {
    req.log.debug({ method: req.method, url: redactUrl(req.url), status: res.statusCode, ms: Math.round(res.elapsedTime) }, 'request');
  });
  await registerSecurityHeaders(app, {
    appUrl: () => config.appUrl,
    widgetUrl: config.intercomAppId && config.intercomSecret ? config.intercomWidgetUrl : null,
    blobOrigins: blobOrigins(config),
  });
  app.get(API.health, async (req, res) => reply(req, res, ok<HealthInfo>({ ok: true, ...services.health() })));
  accountRoutes(app, services.accounts);
  libraryRoutes(app, services.accounts, services.libraries, services.uploads);
  blobRoutes(app, services.blobs, services.uploads, services.libraries, services.tokens);
  searchRoutes(app, services.accounts, services.search);
  renderRoutes(app, services.accounts, services.renders);
  externalRoutes(app, services.accounts, services.external);
  previewRoutes(app, services.accounts, services.libraries, services.index, services.transcripts, services.blobs, services.tokens);
  transcriptRoutes(app, services.accounts, services.transcripts);
  billingRoutes(app, services.accounts, services.billing, services.provider, services.billingRepo, services.users, () => config.appUrl);
  adminRoutes(app, services.accounts, adminKey, () => config.appUrl);
  await registerWebApp(app, config.webDir);
  return app;
}
