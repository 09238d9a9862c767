import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance } from 'fastify';
import { MSG, type ApiErrorBody } from '../../contract';
import { AppError } from '../errors';
import { sendEnvelope } from './codec';

/** What a request cut short by a shutdown is told to wait before trying again (a restart takes a few seconds). */
const SHUTDOWN_RETRY_SECONDS = 5;

/**
 * One place maps every error to the envelope and a status; unknown errors never leak a stack. A
 * value the route's schema refuses is a 400 'validation_failed' naming the field.
 */
export function registerErrorHandler(app: FastifyInstance) {
  // Once the server is stopping, the work of requests still in flight is cut short (their tools are
  // killed, the database closes): what fails then is answered 503 'try again', as Fastify answers a
  // request that arrives while it closes, not as an error of ours.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('preHandler', async (req) => {
    assertFinite('params', req.params);
    assertFinite('querystring', req.query);
    assertFinite('body', req.body);
  });
  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    let status: number;
    let body: ApiErrorBody;
    if (err instanceof AppError) {
      status = err.status;
      body = { code: err.code, message: err.message, ...(err.extra ?? {}) };
    } else if (err.validation) {
      status = 400;
      body = { code: 'validation_failed', message: validationMessage(err) };
    } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      status = 415;
      body = { code: 'unsupported_media_type', message: MSG.unsupportedContentType };
    } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      status = 413;
      body = { code: 'payload_too_large', message: 'The request body is too large.' };
    } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      status = err.statusCode;
      body = { code: 'bad_request', message: err.message };
    } else if (closing) {
      req.log.info({ err: (err as Error).message }, 'request cut short by shutdown');
      status = 503;
      body = { code: 'unavailable', message: MSG.shuttingDown, retryAfterSeconds: SHUTDOWN_RETRY_SECONDS };
    } else {
      const correlationId = randomUUID();
      req.log.error({ err, correlationId }, 'unhandled error');
      status = 500;
      body = { code: 'internal', message: `${MSG.internal} (${correlationId})`, correlationId };
    }
    if ((status === 429 || status === 503) && body.retryAfterSeconds) reply.header('retry-after', String(body.retryAfterSeconds));
    return sendEnvelope(req, reply, { data: null, error: body }, status);
  });
}

/** The first failure of the route's schema (contract/schemas), naming the field: 'start must be number'. */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return err.message;
  const field = (first.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
  const missing = (first.params as { missingProperty?: string } | undefined)?.missingProperty;
  if (missing) return `${missing} is required`;
  if (first.keyword === 'additionalProperties') {
    const extra = (first.params as { additionalProperty?: string }).additionalProperty;
    return `${extra} is not allowed`;
  }
  return `${field || err.validationContext || 'body'} ${first.message ?? 'is invalid'}`;
}

/**
 * Ajv coerces the texts 'Infinity' and '1e400' to Infinity and then skips that number's range
 * checks (it runs them on finite numbers only), so after validation a value is refused here when it
 * is not finite, whatever the part: no schema of the contract allows one.
 */
function assertFinite(part: string, value: unknown) {
  const stack: Array<[string, unknown]> = [['', value]];
  while (stack.length) {
    const [at, v] = stack.pop()!;
    if (typeof v === 'number' && !Number.isFinite(v)) throw new AppError('validation_failed', `${at || part} must be number`);
    // Parsed values only: not a raw body (bytes, or the stream of an upload part).
    const parsed = v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && typeof (v as { pipe?: unknown }).pipe !== 'function';
    if (parsed) for (const [k, x] of Object.entries(v as object)) stack.push([at ? `${at}.${k}` : k, x]);
  }
}
