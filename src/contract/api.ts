import type { IntercomAnswer, ResetRequestAnswer, User, UserSettings } from './entities';
import type { MomentTrim } from './momentTrims';
import type {
  ChangePasswordBody,
  EmailBody,
  FeedbackBody,
  LoginBody,
  MomentTrimsBody,
  RegisterBody,
  ResetBody,
  ResetCheckBody,
  VerifyEmailBody,
} from './schemas/account';

/**
 * Request and answer shapes of the account calls (the `data` of the envelope; bodies are the
 * schemas of schemas/account.ts). Calls marked "+ token" also return a fresh session token in the
 * envelope's `token`.
 */
export interface AccountCalls {
  login: { body: LoginBody; data: User }; // + token
  register: { body: RegisterBody; data: User }; // + token
  logout: { body: undefined; data: { ok: true } };
  resetRequest: { body: EmailBody; data: ResetRequestAnswer };
  reset: { body: ResetBody; data: { ok: true } };
  /** ok when the reset link can be used; otherwise the error reset would answer (code_invalid), and the link stays as it was. */
  resetCheck: { body: ResetCheckBody; data: { ok: true } };
  changePassword: { body: ChangePasswordBody; data: User }; // + token
  verifyEmail: { body: VerifyEmailBody; data: User }; // + token (verifying signs in)
  resendVerification: { body: EmailBody; data: ResetRequestAnswer };
  refreshToken: { body: undefined; data: User }; // + token; refused for impersonation tokens
  me: { body: undefined; data: User };
  meSettings: { body: Partial<UserSettings>; data: User };
  /** GET: every trim of the account; POST: edits applied (the later edit of a moment stays), then every trim. */
  meTrims: { body: MomentTrimsBody | undefined; data: MomentTrim[] };
  intercom: { body: undefined; data: IntercomAnswer };
  feedback: { body: FeedbackBody; data: { ok: true } };
}
