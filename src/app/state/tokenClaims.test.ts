import { describe, expect, it } from 'vitest';
import type { TokenClaims } from '../../contract';
import { decodeClaims, isExpired, minutesLeft, refreshDelayMs } from './tokenClaims';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}.signature`;

const NOW = 1_700_000_000_000;
const claims = (over: Partial<TokenClaims> = {}): TokenClaims => ({
  sub: 'u1',
  email: 'ada@example.com',
  iat: NOW / 1000,
  exp: NOW / 1000 + 7 * 24 * 3600,
  ...over,
});

describe('token claims', () => {
  it('decodes a JWT payload, including non-ASCII text and impersonatedBy', () => {
    const c = decodeClaims(jwt({ sub: 'u1', email: 'zoë@example.com', exp: 10, iat: 1, impersonatedBy: 'support@clipseek.test' }));
    expect(c).toEqual({ sub: 'u1', email: 'zoë@example.com', exp: 10, iat: 1, impersonatedBy: 'support@clipseek.test' });
  });

  it('returns null for garbage or a payload without exp', () => {
    expect(decodeClaims(null)).toBeNull();
    expect(decodeClaims('not-a-jwt')).toBeNull();
    expect(decodeClaims('a.%%%.c')).toBeNull();
    expect(decodeClaims(jwt({ sub: 'x' }))).toBeNull();
  });

  it('knows when a token has expired', () => {
    expect(isExpired(claims({ exp: NOW / 1000 - 1 }), NOW)).toBe(true);
    expect(isExpired(claims(), NOW)).toBe(false);
  });

  it('counts minutes left, rounding up and never below zero', () => {
    expect(minutesLeft(claims({ exp: NOW / 1000 + 61 }), NOW)).toBe(2);
    expect(minutesLeft(claims({ exp: NOW / 1000 + 3600 }), NOW)).toBe(60);
    expect(minutesLeft(claims({ exp: NOW / 1000 - 100 }), NOW)).toBe(0);
  });

  it('plans a refresh before expiry: at most an hour early for long sessions', () => {
    const delay = refreshDelayMs(claims(), NOW)!;
    expect(delay).toBe(7 * 24 * 3600_000 - 3600_000);
  });

  it('refreshes short sessions at 90% of their life, but at least 30 s before expiry', () => {
    expect(refreshDelayMs(claims({ exp: NOW / 1000 + 1000 }), NOW)).toBe(900_000);
    expect(refreshDelayMs(claims({ exp: NOW / 1000 + 60 }), NOW)).toBe(30_000);
    expect(refreshDelayMs(claims({ exp: NOW / 1000 + 10 }), NOW)).toBe(0);
  });

  it('never refreshes impersonation tokens, expired tokens or no token', () => {
    expect(refreshDelayMs(claims({ impersonatedBy: 'support@clipseek.test' }), NOW)).toBeNull();
    expect(refreshDelayMs(claims({ exp: NOW / 1000 - 1 }), NOW)).toBeNull();
    expect(refreshDelayMs(null, NOW)).toBeNull();
  });
});
