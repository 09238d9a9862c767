import { describe, expect, it } from 'vitest';
import { withNext } from './nextPath';

describe('withNext', () => {
  it('carries a safe next, with the other parameters', () => {
    expect(withNext('/register', '/settings/password')).toBe('/register?next=%2Fsettings%2Fpassword');
    expect(withNext('/login', '/search?text=dog', { email: 'a@b.co', err: 'exists' })).toBe(
      '/login?email=a%40b.co&err=exists&next=%2Fsearch%3Ftext%3Ddog',
    );
  });
  it('leaves off a missing or unsafe next (never an open redirect)', () => {
    expect(withNext('/register', null)).toBe('/register');
    for (const next of ['//evil.example', 'https://evil.example/x', '/a/../b', '/\\evil.example', 'settings'])
      expect(withNext('/verify-email', next)).toBe('/verify-email');
  });
});
