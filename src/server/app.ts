import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifySchema,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from 'fastify';
import { createPinoLogger, redactUrl } from './logging';
import type { Config } from './config';
import { accountRoutes } from './modules/accounts/account.routes';
import { adminRoutes } from './modules/support/admin.routes';
import { registerCodecs } from './http/codec';
import { ok, reply } from './http/envelope';
import { registerErrorHandler } from './http/errorHandler';
import { registerInputGuard } from './http/inputGuard';
import { registerValidatorCompiler } from './http/validatorCompiler';
import { registerWebApp } from './http/static';
import { blobOrigins, registerSecurityHeaders } from './http/securityHeaders';
import { API, type HealthInfo } from '../contract';
import type { BlobStore } from './adapters/blobs/blobStore';
import type { TokenSigner } from './adapters/security/tokens';
import { blobRoutes } from './modules/delivery/blob.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { previewRoutes } from './modules/delivery/preview.routes';
import { searchRoutes } from './modules/search/search.routes';
import type { SearchService } from './modules/search/search.service';
import type { PaymentProvider } from './adapters/billing/paymentProvider';
import type { BillingService } from './modules/billing/billing.service';
import { libraryRoutes } from './modules/libraries/library.routes';
import { renderRoutes } from './modules/render/render.routes';
import type { RenderService } from './modules/render/render.service';
import { externalRoutes } from './modules/external/external.routes';
import type { ExternalService } from './modules/external/external.service';
import type { AccountService } from './modules/accounts/account.service';
import type { LibraryService } from './modules/libraries/library.service';
import type { UploadService } from './modules/upload/upload.service';
import type { MomentTrimsService } from './modules/accounts/momentTrims.service';
import type { TranscriptService } from './modules/search/transcript.service';
import { transcriptRoutes } from './modules/search/transcript.routes';

export interface Services {
  accounts: AccountService;
  libraries: LibraryService;
  uploads: UploadService;
  blobs: BlobStore;
  tokens: TokenSigner;
  billing: BillingService;
  provider: PaymentProvider;
  transcripts: TranscriptService;
  trims: MomentTrimsService;
  search: SearchService;
  renders: RenderService;
  external: ExternalService;
  /** What the indexer can compute here, for `GET /health`. */
  health: () => Omit<HealthInfo, 'ok'>;
}

/** The HTTP app: request params, query and body are typed from each route's TypeBox schemas (src/contract/schemas). */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A registered route: its method, URL pattern (`:name` for a path parameter) and schemas. */
export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as registered, HEAD included; the authorization and fuzz tests walk it. */
    routeTable: RouteEntry[];
  }
}

export const createLogger = (config: Config): FastifyBaseLogger => createPinoLogger(config.logLevel);

/**
 * Builds the HTTP app: the validator (bodies exact, text parts coerced), codecs, one error handler,
 * the input guard (no control characters in any string of a call), the API routes, then the web app.
 */
export async function buildHttpApp(config: Config, log: FastifyBaseLogger, services: Services, adminKey: string): Promise<App> {
  const app = Fastify({
    loggerInstance: log,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    // Per-request lines are logged at debug by the onResponse hook below, not at info.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<TypeBoxTypeProvider>();
  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeTable.push({ method, url: r.url, schema: r.schema });
  });
  registerValidatorCompiler(app);
  registerCodecs(app);
  registerErrorHandler(app);
  registerInputGuard(app);
  app.addHook('onResponse', async (req, res) => {
    req.log.debug({ method: req.method, url: redactUrl(req.url), status: res.statusCode, ms: Math.round(res.elapsedTime) }, 'request');
  });
  await registerSecurityHeaders(app, {
    appUrl: () => config.appUrl,
    widgetUrl: config.intercomAppId && config.intercomSecret ? config.intercomWidgetUrl : null,
    blobOrigins: blobOrigins(config),
  });
  app.get(API.health, async (req, res) => reply(req, res, ok<HealthInfo>({ ok: true, ...services.health() })));
  accountRoutes(app, services.accounts, services.trims);
  libraryRoutes(app, services.accounts, services.libraries, services.uploads);
  blobRoutes(app, services.blobs, services.uploads, services.libraries, services.tokens);
  searchRoutes(app, services.accounts, services.search);
  renderRoutes(app, services.accounts, services.renders);
  externalRoutes(app, services.accounts, services.external);
  previewRoutes(app, services.accounts, services.libraries, services.transcripts, services.blobs, services.tokens);
  transcriptRoutes(app, services.accounts, services.transcripts);
  billingRoutes(app, services.accounts, services.billing, services.provider, () => config.appUrl);
  adminRoutes(app, services.accounts, adminKey, () => config.appUrl);
  await registerWebApp(app, config.webDir);
  return app;
}
