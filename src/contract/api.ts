import type { IntercomAnswer, ResetRequestAnswer, UiPreferences, User } from './entities';

/**
 * Request and answer shapes of the account calls (the `data` of the envelope). Calls marked
 * "+ token" also return a fresh session token in the envelope's `token`.
 */
export interface AccountCalls {
  login: { body: { email: string; password: string }; data: User }; // + token
  register: { body: { email: string; password: string }; data: User }; // + token
  logout: { body: undefined; data: { ok: true } };
  resetRequest: { body: { email: string }; data: ResetRequestAnswer };
  reset: { body: { token: string; password: string }; data: { ok: true } };
  changePassword: { body: { oldPassword: string; newPassword: string }; data: User }; // + token
  verifyEmail: { body: { token: string }; data: User }; // + token (verifying signs in)
  resendVerification: { body: { email: string }; data: ResetRequestAnswer };
  refreshToken: { body: undefined; data: User }; // + token; refused for impersonation tokens
  me: { body: undefined; data: User };
  meSettings: { body: Partial<UiPreferences>; data: User };
  intercom: { body: undefined; data: IntercomAnswer };
  feedback: { body: { name: string; email: string; comments: string; error: string }; data: { ok: true } };
}
