import type { FastifyRequest } from 'fastify';
import { MSG } from '../../contract';
import { AppError } from '../errors';
import type { AccountService, Session } from '../modules/accounts/account.service';

declare module 'fastify' {
  interface FastifyRequest {
    session?: Session;
  }
}

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m ? m[1]!.trim() : null;
}

/** preHandler: requires a valid bearer token and puts the session on the request. */
export const requireAuth = (accounts: AccountService) => async (req: FastifyRequest) => {
  const token = bearer(req);
  if (!token) throw new AppError('unauthorized', MSG.unauthorized);
  req.session = await accounts.authenticate(token);
};

/** preHandler: attaches the session when a valid token is present, never fails. */
export const optionalAuth = (accounts: AccountService) => async (req: FastifyRequest) => {
  const token = bearer(req);
  if (!token) return;
  try {
    req.session = await accounts.authenticate(token);
  } catch {
    /* anonymous */
  }
};

export const sessionOf = (req: FastifyRequest): Session => {
  if (!req.session) throw new AppError('unauthorized', MSG.unauthorized);
  return req.session;
};
