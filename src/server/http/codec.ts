import { decode, encode } from '@msgpack/msgpack';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE, MSG, MSGPACK, type Envelope } from '../../contract';
import { AppError } from '../errors';

/**
 * Body codecs: msgpack (the client's default) and JSON, chosen by Content-Type on the way in and by
 * Accept (falling back to the request's Content-Type) on the way out.
 */
export function registerCodecs(app: FastifyInstance) {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(MSGPACK, { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body: Buffer, done) => {
    if (body.length === 0) return done(null, {});
    try {
      done(null, decode(body));
    } catch {
      done(new AppError('bad_request', 'The msgpack body could not be decoded.'), undefined);
    }
  });
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string', bodyLimit: 1024 * 1024 }, (_req, body: string, done) => {
    if (body.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(body));
    } catch {
      done(new AppError('bad_request', 'The JSON body could not be parsed.'), undefined);
    }
  });
  // Anything else with a body is refused with a clear 415 (see the error handler).
  app.addContentTypeParser('*', (req, _payload, done) => {
    const type = req.headers['content-type'];
    done(new AppError('unsupported_media_type', type ? MSG.unsupportedContentType : MSG.missingContentType), undefined);
  });
}

export function wantsMsgpack(req: FastifyRequest): boolean {
  const accept = req.headers.accept ?? '';
  if (accept.includes(MSGPACK)) return true;
  if (accept.includes(JSON_TYPE)) return false;
  return (req.headers['content-type'] ?? '').startsWith(MSGPACK);
}

/** Sends the envelope in the negotiated format. */
export function sendEnvelope(req: FastifyRequest, reply: FastifyReply, body: Envelope, status = 200) {
  reply.code(status).header('cache-control', 'no-store').header('vary', 'Accept, Content-Type');
  if (wantsMsgpack(req)) {
    return reply.type(MSGPACK).send(Buffer.from(encode(body, { ignoreUndefined: true })));
  }
  return reply.type(`${JSON_TYPE}; charset=utf-8`).send(JSON.stringify(body));
}
