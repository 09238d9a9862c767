import { encode } from '@msgpack/msgpack';
import type { Envelope } from '../../contract';

/** Test support for the state tests: what a browser and the server hand the app, stood in for. */

/** A Storage backed by a Map, standing in for the browser's local storage; `refuse` makes writes throw (quota, privacy mode). */
export class MemoryStorage {
  data = new Map<string, string>();
  refuse = false;
  getItem = (k: string) => this.data.get(k) ?? null;
  setItem = (k: string, v: string) => {
    if (this.refuse) throw new Error('QuotaExceededError');
    this.data.set(k, v);
  };
  removeItem = (k: string) => {
    if (this.refuse) throw new Error('QuotaExceededError');
    this.data.delete(k);
  };
}

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned access token for `sub` valid for an hour from now (the app only reads its claims). */
export const tokenFor = (sub: string, extra: object = {}) =>
  `${b64url({ alg: 'HS256' })}.${b64url({ sub, email: `${sub}@example.com`, iat: Date.now() / 1000, exp: Date.now() / 1000 + 3600, ...extra })}.sig`;

/** The server's answer: `envelope` as msgpack with `status`. */
export const reply = (envelope: Envelope, status = 200) =>
  new Response(encode(envelope) as Uint8Array<ArrayBuffer>, { status, headers: { 'content-type': 'application/msgpack' } });

/** The server's 404 for a path a test's server does not serve. */
export const notFound = () => reply({ data: null, error: { code: 'not_found', message: 'Not found.' } }, 404);

/** The server's 500. */
export const internalError = () => reply({ data: null, error: { code: 'internal', message: 'Something went wrong.' } }, 500);

/** The session and the query client as a page loads them afresh (call after `vi.resetModules()`). */
export async function loadSession() {
  const session = await import('./session');
  const { queryClient } = await import('../api/queryClient');
  const { queryKeys } = await import('../api/queryKeys');
  return { ...session, queryClient, queryKeys };
}
