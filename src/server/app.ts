import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import { createPinoLogger, redactUrl } from './logging';
import type { Config } from './config';
import { registerCodecs } from './http/codec';
import { ok, reply } from './http/envelope';
import { registerErrorHandler } from './http/errorHandler';
import { registerInputGuard } from './http/inputGuard';
import { registerValidatorCompiler } from './http/validatorCompiler';
import { registerWebApp } from './http/static';
import { blobOrigins, registerSecurityHeaders } from './http/securityHeaders';
import type { App, RegisterRoutes, RouteEntry } from './http/types';
import { API, type HealthInfo } from '../contract';

export type { App, RouteEntry } from './http/types';

/** What the HTTP app serves besides its plumbing: `GET /health`, and each module's routes. */
export interface HttpModules {
  /** What the indexer can compute here, for `GET /health`. */
  health: () => Omit<HealthInfo, 'ok'>;
  routes: RegisterRoutes[];
}

export const createLogger = (config: Config): FastifyBaseLogger => createPinoLogger(config.logLevel);

/**
 * Builds the HTTP app: the validator (bodies exact, text parts coerced), codecs, one error handler,
 * the input guard (no control characters in any string of a call), the API routes, then the web app.
 */
export async function buildHttpApp(config: Config, log: FastifyBaseLogger, modules: HttpModules): Promise<App> {
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
  app.get(API.health, async (req, res) => reply(req, res, ok<HealthInfo>({ ok: true, ...modules.health() })));
  for (const register of modules.routes) register(app);
  await registerWebApp(app, config.webDir);
  return app;
}
