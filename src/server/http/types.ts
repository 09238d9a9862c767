import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';

/** The HTTP app: request params, query and body are typed from each route's TypeBox schemas (src/contract/schemas). */
export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What a module hands the HTTP app: it registers the module's routes (thin: parse, call the service, reply). */
export type RegisterRoutes = (app: App) => void;

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
