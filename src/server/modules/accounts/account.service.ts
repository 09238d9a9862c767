import { SignJWT } from 'jose';
import {
  confirmEmailLink,
  DEFAULT_UI_PREFERENCES,
  EMAIL_CODE_TTL_SECONDS,
  isValidEmail,
  LOGIN_MAX_FAILURES_PER_ACCOUNT,
  LOGIN_MAX_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_SECONDS,
  MAIL_REQUEST_WINDOW_SECONDS,
  MAIL_REQUESTS_MAX_PER_ACCOUNT,
  MAIL_REQUESTS_MAX_PER_ADDRESS,
  MSG,
  normaliseEmail,
  PASSWORD_MIN_LENGTH,
  REGISTER_MAX_PER_ADDRESS,
  REGISTER_MAX_PER_EMAIL,
  REGISTER_WINDOW_SECONDS,
  RESEND_WAIT_SECONDS,
  RESET_CODE_TTL_SECONDS,
  resetPasswordLink,
  SESSION_TTL_SECONDS,
  validatePreferences,
  type IntercomAnswer,
  type ResetRequestAnswer,
  type UiPreferences,
  type User,
  type UserSettings,
} from '../../../contract';
import type { Mailer } from '../../adapters/mail/mailer';
import type { PasswordHasher } from '../../adapters/security/passwords';
import { hashCode, newCode, type SessionClaims, type TokenSigner } from '../../adapters/security/tokens';
import { AppError, badRequest, rateLimited } from '../../errors';
import type { CodeRepository } from './code.repository';
import type { RateRepository } from './rate.repository';
import type { SupportRepository } from '../support/support.repository';
import type { UserRepository, UserRow } from './user.repository';
import { resetMail, verificationMail } from './mailTemplates';

export interface Session {
  user: UserRow;
  claims: SessionClaims;
  /** The libraries the user owned when the request was authenticated (read with the user, one statement). */
  libraryIds: readonly string[];
}

/** Things other modules do when an account is created (billing: signup bonus; libraries: default + demo). */
export type UserCreatedHook = (user: UserRow) => Promise<void>;

export interface AccountDeps {
  users: UserRepository;
  codes: CodeRepository;
  rates: RateRepository;
  support: SupportRepository;
  hasher: PasswordHasher;
  tokens: TokenSigner;
  mailer: Mailer;
  /** Where mailed links point (read late: with PORT=0 it is known only after listen). */
  appUrl: () => string;
  intercomSecret: string | null;
  onUserCreated: UserCreatedHook[];
}

export function toUser(row: UserRow): User {
  return {
    _id: row.id,
    email: row.email,
    name: row.name,
    createdAt: new Date(row.created_at).toISOString(),
    isVerified: row.is_verified,
    settings: { ...DEFAULT_UI_PREFERENCES, ...(row.settings as Partial<UiPreferences>) },
  };
}

const requireEmail = (raw: string) => {
  const email = normaliseEmail(raw);
  // The register screen maps a 400 containing 'must be a valid email' to 'Invalid email'.
  if (!isValidEmail(email) || email.length > 254) throw new AppError('validation_failed', `email ${MSG.serverInvalidEmailMarker}`);
  return email;
};

const requirePassword = (password: string, field = 'password') => {
  if (password.length < PASSWORD_MIN_LENGTH)
    throw new AppError('validation_failed', `${field} must be at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > 1024) throw new AppError('validation_failed', `${field} must be at most 1024 characters`);
};

export class AccountService {
  /** Verified against when the email is unknown, so a miss costs the same time as a hit. */
  private dummyHash: Promise<string>;

  constructor(private readonly d: AccountDeps) {
    this.dummyHash = d.hasher.hash('not-a-real-password-0000');
  }

  private issue(user: UserRow, ttl = SESSION_TTL_SECONDS, impersonatedBy?: string) {
    return this.d.tokens.sign({ sub: user.id, email: user.email, ver: user.token_version, impersonatedBy }, ttl);
  }

  /** Resolves a bearer token to its user; tokens from before a password change stop working. */
  async authenticate(token: string): Promise<Session> {
    const claims = await this.d.tokens.verify(token);
    const found = await this.d.users.byIdWithLibraries(claims.sub);
    if (!found || found.user.token_version !== claims.ver) throw new AppError('token_invalid', MSG.tokenInvalid);
    return { user: found.user, claims, libraryIds: found.libraryIds };
  }

  /**
   * Refuses with 429 `message` when any of `limits` (key, window, max) is reached; else records one
   * event under each key. Only accepted requests are recorded.
   */
  private async limit(message: string, limits: [key: string, windowSeconds: number, max: number][]) {
    const waits = await Promise.all(limits.map(([key, window, max]) => this.d.rates.waitFor(key, window, max)));
    const wait = Math.max(...waits);
    if (wait > 0) throw rateLimited(message, wait);
    await Promise.all(limits.map(([key]) => this.d.rates.record(key)));
  }

  async register(rawEmail: string, password: string, address: string) {
    const email = requireEmail(rawEmail);
    requirePassword(password);
    await this.limit(MSG.tooManySignups, [
      [`register:address:${address}`, REGISTER_WINDOW_SECONDS, REGISTER_MAX_PER_ADDRESS],
      [`register:account:${email}`, REGISTER_WINDOW_SECONDS, REGISTER_MAX_PER_EMAIL],
    ]);
    const passwordHash = await this.d.hasher.hash(password);
    const user = await this.d.users.create({ email, name: email.split('@')[0]!, passwordHash });
    if (!user) throw new AppError('email_exists', MSG.emailExists);
    for (const hook of this.d.onUserCreated) await hook(user);
    await this.d.users.claimVerificationSlot(user.id, 0);
    await this.sendVerification(user);
    return { user: toUser(user), token: await this.issue(user) };
  }

  async login(rawEmail: string, password: string, address: string) {
    if (!rawEmail || !password) throw new AppError('validation_failed', MSG.emailPasswordRequired);
    const email = normaliseEmail(rawEmail);
    const accountKey = `login:account:${email}`;
    const addressKey = `login:address:${address}`;
    const [accountFailures, addressFailures] = await Promise.all([
      this.d.rates.count(accountKey, LOGIN_WINDOW_SECONDS),
      this.d.rates.count(addressKey, LOGIN_WINDOW_SECONDS),
    ]);
    if (accountFailures >= LOGIN_MAX_FAILURES_PER_ACCOUNT || addressFailures >= LOGIN_MAX_FAILURES_PER_ADDRESS)
      throw rateLimited(MSG.tooManyLogins, LOGIN_WINDOW_SECONDS);
    const user = await this.d.users.byEmail(email);
    const valid = await this.d.hasher.verify(user?.password_hash ?? (await this.dummyHash), password);
    if (!user || !valid) {
      await Promise.all([this.d.rates.record(accountKey), this.d.rates.record(addressKey)]);
      throw new AppError('unauthorized', MSG.wrongCredentials);
    }
    await this.d.rates.clear(accountKey);
    return { user: toUser(user), token: await this.issue(user) };
  }

  private async sendVerification(user: UserRow) {
    const code = newCode();
    await this.d.codes.revokeOthers(user.id, 'verify');
    await this.d.codes.create(user.id, 'verify', hashCode(code), EMAIL_CODE_TTL_SECONDS);
    await this.d.mailer.send(verificationMail(user.email, confirmEmailLink(this.d.appUrl(), code)));
  }

  /**
   * Answers alike for unknown, verified and unverified emails; the 60 s wait and the hourly cap are
   * enforced per account, the hourly cap of requests per address.
   */
  async resendVerification(rawEmail: string, address: string): Promise<ResetRequestAnswer> {
    const email = requireEmail(rawEmail);
    await this.limit(MSG.resendTooSoon, [[`verify:address:${address}`, MAIL_REQUEST_WINDOW_SECONDS, MAIL_REQUESTS_MAX_PER_ADDRESS]]);
    const user = await this.d.users.byEmail(email);
    if (user && !user.is_verified) {
      const accountKey = `verify:account:${email}`;
      const wait = await this.d.rates.waitFor(accountKey, MAIL_REQUEST_WINDOW_SECONDS, MAIL_REQUESTS_MAX_PER_ACCOUNT);
      if (wait > 0) throw rateLimited(MSG.resendTooSoon, wait);
      if (!(await this.d.users.claimVerificationSlot(user.id, RESEND_WAIT_SECONDS))) {
        const since = user.last_verification_sent_at ? (Date.now() - new Date(user.last_verification_sent_at).getTime()) / 1000 : 0;
        throw rateLimited(MSG.resendTooSoon, Math.max(1, Math.ceil(RESEND_WAIT_SECONDS - since)));
      }
      await this.d.rates.record(accountKey);
      await this.sendVerification(user);
    }
    return { retryAfterSeconds: RESEND_WAIT_SECONDS };
  }

  async verifyEmail(code: string) {
    const result = await this.d.codes.consume('verify', hashCode(code));
    if (result === 'invalid') throw new AppError('code_invalid', MSG.codeInvalid);
    if (result === 'expired') throw new AppError('code_invalid', MSG.codeExpired);
    const user = await this.d.users.markVerified(result.userId);
    return { user: toUser(user), token: await this.issue(user) };
  }

  /**
   * Unknown emails get the same answer and the same limits, so the call reveals nothing: one a minute
   * and 5 an hour per account, 20 an hour per address, each refused with the spec's message.
   */
  async requestPasswordReset(rawEmail: string, address: string): Promise<ResetRequestAnswer> {
    const email = requireEmail(rawEmail);
    const key = `reset:${email}`;
    const since = await this.d.rates.secondsSinceLast(key);
    if (since !== null && since < RESEND_WAIT_SECONDS)
      throw rateLimited(MSG.resetLimitServer, Math.max(1, Math.ceil(RESEND_WAIT_SECONDS - since)));
    await this.limit(MSG.resetLimitServer, [
      [key, MAIL_REQUEST_WINDOW_SECONDS, MAIL_REQUESTS_MAX_PER_ACCOUNT],
      [`reset:address:${address}`, MAIL_REQUEST_WINDOW_SECONDS, MAIL_REQUESTS_MAX_PER_ADDRESS],
    ]);
    const user = await this.d.users.byEmail(email);
    if (user) {
      const code = newCode();
      await this.d.codes.revokeOthers(user.id, 'reset');
      await this.d.codes.create(user.id, 'reset', hashCode(code), RESET_CODE_TTL_SECONDS);
      await this.d.mailer.send(resetMail(user.email, resetPasswordLink(this.d.appUrl(), code)));
    }
    return { retryAfterSeconds: RESEND_WAIT_SECONDS };
  }

  /** Whether a reset link still works, leaving it as it is: the set-new-password form says so when opened, not on submit. */
  async checkResetCode(code: string) {
    const state = await this.d.codes.peek('reset', hashCode(code));
    if (state === 'invalid') throw new AppError('code_invalid', MSG.codeInvalid);
    if (state === 'expired') throw new AppError('code_invalid', MSG.codeExpired);
    return { ok: true as const };
  }

  async resetPassword(code: string, password: string) {
    requirePassword(password);
    const passwordHash = await this.d.hasher.hash(password);
    const result = await this.d.codes.consume('reset', hashCode(code));
    if (result === 'invalid') throw new AppError('code_invalid', MSG.codeInvalid);
    if (result === 'expired') throw new AppError('code_invalid', MSG.codeExpired);
    await this.d.users.setPassword(result.userId, passwordHash);
    // Following the emailed link proves the address, and earlier links are now void.
    await this.d.users.markVerified(result.userId);
    await this.d.codes.revokeOthers(result.userId, 'reset');
    return { ok: true as const };
  }

  async changePassword(session: Session, oldPassword: string, newPassword: string) {
    if (!oldPassword) throw new AppError('validation_failed', MSG.currentPasswordRequired);
    if (!newPassword) throw new AppError('validation_failed', MSG.newPasswordRequired);
    requirePassword(newPassword, 'newPassword');
    if (!(await this.d.hasher.verify(session.user.password_hash, oldPassword))) throw new AppError('forbidden', MSG.wrongCurrentPassword);
    const user = await this.d.users.setPassword(session.user.id, await this.d.hasher.hash(newPassword));
    const remaining = session.claims.exp - Math.floor(Date.now() / 1000);
    const token = session.claims.impersonatedBy
      ? await this.issue(user, Math.max(1, remaining), session.claims.impersonatedBy)
      : await this.issue(user);
    return { user: toUser(user), token };
  }

  async refresh(session: Session) {
    if (session.claims.impersonatedBy) throw new AppError('impersonation_refresh_forbidden', MSG.impersonationNoRefresh);
    return { user: toUser(session.user), token: await this.issue(session.user) };
  }

  async updateSettings(session: Session, patch: unknown) {
    const problem = validatePreferences(patch);
    if (problem) throw badRequest(problem);
    const merged = { ...(session.user.settings as object), ...(patch as Partial<UserSettings>) };
    return toUser(await this.d.users.updateSettings(session.user.id, merged));
  }

  /** An identity token for the support chat, signed with the configured secret (HS256 JWT). */
  async intercomToken(session: Session): Promise<IntercomAnswer> {
    if (!this.d.intercomSecret) throw new AppError('not_configured', MSG.intercomNotConfigured);
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const intercomToken = await new SignJWT({ user_id: session.user.id, email: session.user.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt()
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode(this.d.intercomSecret));
    return { intercomToken, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /** Support staff sign-in as a user; the token carries impersonatedBy and is never refreshed. */
  async impersonate(rawEmail: string, byEmail: string, minutes: number) {
    const email = normaliseEmail(rawEmail);
    const by = normaliseEmail(byEmail);
    if (!isValidEmail(by)) throw badRequest('--by must be the support person’s email');
    if (!Number.isFinite(minutes) || minutes < 1 || minutes > 24 * 60) throw badRequest('minutes must be between 1 and 1440');
    const user = await this.d.users.byEmail(email);
    if (!user) throw new AppError('not_found', `No account with the email ${email}`);
    const expiresAt = new Date(Date.now() + minutes * 60_000);
    await this.d.support.recordImpersonation(user.id, by, expiresAt);
    return { token: await this.issue(user, Math.round(minutes * 60), by), user: toUser(user), expiresAt };
  }

  async feedback(input: { name: string; email: string; comments: string; error: string }, userId: string | null, userAgent: string) {
    await this.d.support.addFeedback({ ...input, userId, userAgent: userAgent.slice(0, 500) });
    return { ok: true as const };
  }

  async cleanup() {
    await this.d.codes.deleteStale(new Date(Date.now() - 7 * 24 * 3600 * 1000));
    await this.d.rates.deleteOlderThan(24 * 3600);
  }
}
