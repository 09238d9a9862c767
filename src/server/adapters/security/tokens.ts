import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import { MSG } from '../../../contract';
import { AppError } from '../../errors';

export interface SessionClaims {
  sub: string;
  email: string;
  /** Bumped on password change/reset, so older tokens stop working. */
  ver: number;
  impersonatedBy?: string;
  exp: number;
  iat: number;
}

/** Verified session tokens remembered at most (each a few hundred bytes). */
const VERIFIED_TOKENS = 10_000;

/** Signs and verifies session tokens (HS256 JWT with exp). */
export class TokenSigner {
  private readonly key: Uint8Array<ArrayBuffer>;
  /** The same key imported once for WebCrypto, instead of on every sign and verify. */
  private readonly cryptoKey: Promise<CryptoKey>;
  /**
   * Session tokens whose signature was checked, with their claims: a client sends the same token
   * on every call, and checking an HMAC again gives the same answer. Expiry is checked on every
   * use; whether the token still counts (password changed, user gone) is the caller's check.
   */
  private readonly verified = new LRUCache<string, SessionClaims>({ max: VERIFIED_TOKENS });
  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.cryptoKey = crypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  }

  async sign(claims: { sub: string; email: string; ver: number; impersonatedBy?: string }, ttlSeconds: number): Promise<string> {
    const payload: Record<string, unknown> = { email: claims.email, ver: claims.ver };
    if (claims.impersonatedBy) payload.impersonatedBy = claims.impersonatedBy;
    return new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(await this.cryptoKey);
  }

  async verify(token: string): Promise<SessionClaims> {
    const known = this.verified.get(token);
    if (known && known.exp * 1000 > Date.now()) return known;
    try {
      const { payload } = await jwtVerify(token, await this.cryptoKey, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.email !== 'string' || typeof payload.ver !== 'number')
        throw new AppError('token_invalid', MSG.tokenInvalid);
      const claims = Object.freeze(payload) as unknown as SessionClaims;
      this.verified.set(token, claims);
      return claims;
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof errors.JWTExpired) throw new AppError('token_expired', MSG.tokenExpired);
      throw new AppError('token_invalid', MSG.tokenInvalid);
    }
  }

  /** A library preview token: lets media players and <img> tags read one library's previews and thumbnails. */
  async signPreview(userId: string, libraryId: string, ttlSeconds: number) {
    return new SignJWT({ typ: 'preview', lib: libraryId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
      .sign(await this.cryptoKey);
  }

  async verifyPreview(token: string): Promise<{ userId: string; libraryId: string }> {
    try {
      const { payload } = await jwtVerify(token, await this.cryptoKey, { algorithms: ['HS256'] });
      if (payload.typ !== 'preview' || typeof payload.lib !== 'string' || typeof payload.sub !== 'string')
        throw new Error('not a preview token');
      return { userId: payload.sub, libraryId: payload.lib };
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new AppError('token_expired', 'The preview link has expired.');
      throw new AppError('forbidden', 'The preview token is not valid for this media.');
    }
  }

  /** A keyed MAC for other signed values (admin bridge key, later: part URLs). */
  mac(value: string): string {
    return createHash('sha256').update(this.key).update('\0').update(value).digest('base64url');
  }
}

/** Single-use codes for email links: the mail carries the code, the database only its hash. */
export const newCode = () => randomBytes(32).toString('base64url');
export const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
