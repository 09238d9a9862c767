import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract';
import { ApiError } from '../api/ApiError';
import { changePasswordError, loginError, newPasswordError, registerError, registerFailure, resetRequestError } from './formRules';

describe('form rules', () => {
  it('login needs both fields and a valid email', () => {
    expect(loginError('', 'x')).toBe(MSG.emailPasswordRequired);
    expect(loginError('a@b.co', '')).toBe(MSG.emailPasswordRequired);
    expect(loginError('nope', 'x')).toBe(MSG.invalidEmail);
    expect(loginError(' a@b.co ', 'x')).toBeNull();
  });

  it('register checks fields, email, confirmation, terms and criteria in that order', () => {
    expect(registerError('', '', '', false)).toBe(MSG.emailPasswordRequired);
    expect(registerError('a@b', 'longenough', 'longenough', true)).toBe(MSG.invalidEmail);
    expect(registerError('a@b.co', 'longenough', 'different1', true)).toBe(MSG.passwordFieldsMismatch);
    expect(registerError('a@b.co', 'longenough', 'longenough', false)).toBe(MSG.mustAcceptTerms);
    expect(registerError('a@b.co', 'short', 'short', true)).toBe(MSG.registerCriteriaUnmet);
    expect(registerError('a@b.co', 'longenough', 'longenough', true)).toBeNull();
  });

  it('reset request needs a valid email', () => {
    expect(resetRequestError('')).not.toBeNull();
    expect(resetRequestError('x@y')).toBe(MSG.invalidEmail);
    expect(resetRequestError('x@y.z')).toBeNull();
  });

  it('a new password must match and meet the criteria', () => {
    expect(newPasswordError('longenough', 'longenougH')).toBe(MSG.passwordsDoNotMatch);
    expect(newPasswordError('short', 'short')).toBe(MSG.resetCriteriaUnmet);
    expect(newPasswordError('longenough', 'longenough')).toBeNull();
  });

  it('change password asks for each field, then a match, then the criteria', () => {
    expect(changePasswordError('', 'longenough', 'longenough')).toBe(MSG.currentPasswordRequired);
    expect(changePasswordError('old', '', '')).toBe(MSG.newPasswordRequired);
    expect(changePasswordError('old', 'longenough', 'other')).toBe(MSG.passwordsDoNotMatchDot);
    expect(changePasswordError('old', 'short', 'short')).toBe(MSG.resetCriteriaUnmet);
    expect(changePasswordError('old', 'longenough', 'longenough')).toBeNull();
  });

  it('maps registration failures: 409 to sign-in, a bad email to Invalid email, the rest to their message', () => {
    expect(registerFailure(new ApiError('email_exists', MSG.emailExists, 409))).toEqual({ kind: 'exists' });
    expect(registerFailure(new ApiError('validation_failed', 'email must be a valid email', 400))).toEqual({
      kind: 'message',
      message: MSG.invalidEmail,
    });
    expect(registerFailure(new ApiError('validation_failed', 'password must be at least 8 characters', 400))).toEqual({
      kind: 'message',
      message: 'password must be at least 8 characters',
    });
    expect(registerFailure(new TypeError('Failed to fetch'))).toEqual({ kind: 'message', message: MSG.unexpected });
  });
});
