import { allCriteriaMet, isValidEmail, MSG, passwordCriteria } from '../../contract';
import { isApiError } from '../api/ApiError';

/** The first failing rule of each form (spec section 5), or null when the form may be sent. */

export function loginError(email: string, password: string): string | null {
  if (!email.trim() || !password) return MSG.emailPasswordRequired;
  if (!isValidEmail(email)) return MSG.invalidEmail;
  return null;
}

export function registerError(email: string, password: string, confirmation: string, acceptedTerms: boolean): string | null {
  if (!email.trim() || !password) return MSG.emailPasswordRequired;
  if (!isValidEmail(email)) return MSG.invalidEmail;
  if (password !== confirmation) return MSG.passwordFieldsMismatch;
  if (!acceptedTerms) return MSG.mustAcceptTerms;
  if (!allCriteriaMet(passwordCriteria(password, confirmation))) return MSG.registerCriteriaUnmet;
  return null;
}

export function resetRequestError(email: string): string | null {
  if (!email.trim()) return 'Email is required';
  if (!isValidEmail(email)) return MSG.invalidEmail;
  return null;
}

export function newPasswordError(password: string, confirmation: string): string | null {
  if (password !== confirmation) return MSG.passwordsDoNotMatch;
  if (!allCriteriaMet(passwordCriteria(password, confirmation))) return MSG.resetCriteriaUnmet;
  return null;
}

export function changePasswordError(current: string, next: string, confirmation: string): string | null {
  if (!current) return MSG.currentPasswordRequired;
  if (!next) return MSG.newPasswordRequired;
  if (next !== confirmation) return MSG.passwordsDoNotMatchDot;
  if (!allCriteriaMet(passwordCriteria(next, confirmation))) return MSG.resetCriteriaUnmet;
  return null;
}

/**
 * What a failed registration leads to (spec section 8): a taken address goes to sign-in, the
 * server's email complaint reads 'Invalid email', other API errors show their message.
 */
export function registerFailure(error: unknown): { kind: 'exists' } | { kind: 'message'; message: string } {
  if (isApiError(error) && error.status === 409) return { kind: 'exists' };
  if (isApiError(error) && error.status === 400 && error.message.includes(MSG.serverInvalidEmailMarker))
    return { kind: 'message', message: MSG.invalidEmail };
  return { kind: 'message', message: isApiError(error) ? error.message : MSG.unexpected };
}
