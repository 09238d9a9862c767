import { decode, encode } from '@msgpack/msgpack';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE, MSG, MSGPACK, type Envelope } from '../../contract';
import { AppError } from '../errors';

/**
 * The request's Content-Type is exactly `type`, with at most a charset of UTF-8. Fastify picks a
 * parser by the media type alone, so without this `application/json; charset=latin1` or
 * `application/json;foo` was read as JSON.
 */
export function isExactType(header: string | undefined, type: string): boolean {
  const [media = '', ...params] = (header ?? '').split(';');
  if (media.trim().toLowerCase() !== type) return false;
  return params.every((p) => {
    const param = p.replace(/\s+/g, '').toLowerCase();
    return param === '' || param === 'charset=utf-8' || param === 'charset="utf-8"';
  });
}

/** A request that carries a body (a length over 0, or a chunked one). */
const hasBody = (req: FastifyRequest) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0').trim() !== '0';

/**
 * Body codecs: msgpack (the client's default) and JSON, chosen by Content-Type on the way in and by
 * Accept (falling back to the request's Content-Type) on the way out. Anything else is a 415: another
 * type, a type with parameters other than charset=utf-8, and a compressed body (Content-Encoding
 * other than identity; none is decoded, so gzip bytes would be read as JSON or stored as a file's).
 */
export function registerCodecs(app: FastifyInstance) {
  app.addHook('onRequest', async (req) => {
    const encoding = req.headers['content-encoding'];
    if (encoding === undefined || !hasBody(req)) return;
    if (encoding.split(',').every((e) => ['', 'identity'].includes(e.trim().toLowerCase()))) return;
    throw new AppError('unsupported_media_type', MSG.unsupportedContentEncoding);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(MSGPACK, { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (req, body: Buffer, done) => {
    if (!isExactType(req.headers['content-type'], MSGPACK)) return done(new AppError('unsupported_media_type', MSG.unsupportedContentType));
    if (body.length === 0) return done(null, {});
    try {
      done(null, decode(body));
    } catch {
      done(new AppError('bad_request', 'The msgpack body could not be decoded.'), undefined);
    }
  });
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string', bodyLimit: 1024 * 1024 }, (req, body: string, done) => {
    if (!isExactType(req.headers['content-type'], JSON_TYPE))
      return done(new AppError('unsupported_media_type', MSG.unsupportedContentType));
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
