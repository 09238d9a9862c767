import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { MULTILINE_KEYWORD } from '../../contract';

/**
 * Fastify's own Ajv setup (@fastify/ajv-compiler: its default options, formats and pool), twice:
 * path parameters, query strings and headers are text on the wire, so they keep Fastify's coercion
 * ('7' is 7, 'true' is true); bodies are JSON or msgpack, typed by the sender, so they must match
 * their schema exactly. With coercion a body's `quantity: true` was bought as 1 and `"3"` as 3, and
 * `[2]` as 2. Both know the contract's MULTILINE_KEYWORD (read by the input guard; Ajv's strict mode
 * refuses a keyword it does not know).
 */
export function registerValidatorCompiler(app: FastifyInstance) {
  const build = AjvCompiler();
  const keywords = [MULTILINE_KEYWORD];
  const coercing = build({}, { customOptions: { keywords } });
  const exact = build({}, { customOptions: { keywords, coerceTypes: false } });
  // The pool's compilers take the whole route definition ({ schema, httpPart, ... }), as Fastify passes it.
  type Compile = FastifySchemaCompiler<unknown>;
  const compile: Compile = (route) => ((route.httpPart === 'body' ? exact : coercing) as unknown as Compile)(route);
  app.setValidatorCompiler(compile);
}
