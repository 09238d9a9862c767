import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendEnvelope } from './codec';

/** What a route handler returns: the data, and optionally a token that replaces the stored one. */
export interface Answer<T> {
  data: T;
  token?: string;
  status?: number;
}

export const ok = <T>(data: T, token?: string): Answer<T> => ({ data, token });

export function reply<T>(req: FastifyRequest, res: FastifyReply, answer: Answer<T>) {
  return sendEnvelope(req, res, { data: answer.data, ...(answer.token ? { token: answer.token } : {}) }, answer.status ?? 200);
}
