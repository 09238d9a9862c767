import {
  API,
  changePasswordBodySchema,
  emailBodySchema,
  feedbackBodySchema,
  loginBodySchema,
  momentTrimsBodySchema,
  registerBodySchema,
  resetBodySchema,
  resetCheckBodySchema,
  settingsBodySchema,
  verifyEmailBodySchema,
} from '../../../contract';
import type { App } from '../../http/types';
import { toUser, type AccountService } from './account.service';
import type { MomentTrimsService } from './momentTrims.service';
import { optionalAuth, requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

/** Spec section 7 account calls, at their exact paths; bodies are the schemas of contract/schemas/account.ts. */
export function accountRoutes(app: App, accounts: AccountService, trims: MomentTrimsService) {
  const auth = { preHandler: requireAuth(accounts) };

  app.post(API.login, { schema: { body: loginBodySchema } }, async (req, res) => {
    const { user, token } = await accounts.login(req.body.email ?? '', req.body.password ?? '', req.ip);
    return reply(req, res, ok(user, token));
  });

  app.post(API.register, { schema: { body: registerBodySchema } }, async (req, res) => {
    const { user, token } = await accounts.register(req.body.email, req.body.password, req.ip);
    return reply(req, res, { data: user, token, status: 201 });
  });

  // Sessions are stateless signed tokens: signing out is dropping the token on the client.
  app.post(API.logout, async (req, res) => reply(req, res, ok({ ok: true })));

  app.post(API.resetRequest, { schema: { body: emailBodySchema } }, async (req, res) =>
    reply(req, res, ok(await accounts.requestPasswordReset(req.body.email, req.ip))),
  );

  app.post(API.resetCheck, { schema: { body: resetCheckBodySchema } }, async (req, res) =>
    reply(req, res, ok(await accounts.checkResetCode(req.body.token))),
  );

  app.post(API.reset, { schema: { body: resetBodySchema } }, async (req, res) =>
    reply(req, res, ok(await accounts.resetPassword(req.body.token, req.body.password))),
  );

  app.post(API.changePassword, { ...auth, schema: { body: changePasswordBodySchema } }, async (req, res) => {
    const { user, token } = await accounts.changePassword(sessionOf(req), req.body.oldPassword ?? '', req.body.newPassword ?? '');
    return reply(req, res, ok(user, token));
  });

  app.post(API.verifyEmail, { schema: { body: verifyEmailBodySchema } }, async (req, res) => {
    const { user, token } = await accounts.verifyEmail(req.body.token);
    return reply(req, res, ok(user, token));
  });

  app.post(API.resendVerification, { schema: { body: emailBodySchema } }, async (req, res) =>
    reply(req, res, ok(await accounts.resendVerification(req.body.email, req.ip))),
  );

  app.post(API.refreshToken, auth, async (req, res) => {
    const { user, token } = await accounts.refresh(sessionOf(req));
    return reply(req, res, ok(user, token));
  });

  app.get(API.me, auth, async (req, res) => reply(req, res, ok(toUser(sessionOf(req).user))));

  app.post(API.meSettings, { ...auth, schema: { body: settingsBodySchema } }, async (req, res) =>
    reply(req, res, ok(await accounts.updateSettings(sessionOf(req), req.body))),
  );

  // The account's moment trims (issue 37, item 9): every device reads them and sends its edits.
  app.get(API.meTrims, auth, async (req, res) => reply(req, res, ok(await trims.list(sessionOf(req).user.id))));
  app.post(API.meTrims, { ...auth, schema: { body: momentTrimsBodySchema } }, async (req, res) =>
    reply(req, res, ok(await trims.apply(sessionOf(req).user.id, req.body.edits))),
  );

  app.post(API.intercom, auth, async (req, res) => reply(req, res, ok(await accounts.intercomToken(sessionOf(req)))));

  app.post(API.feedback, { preHandler: optionalAuth(accounts), schema: { body: feedbackBodySchema } }, async (req, res) => {
    const b = req.body;
    const input = { name: b.name ?? '', email: b.email ?? '', comments: b.comments, error: b.error };
    return reply(req, res, {
      data: await accounts.feedback(input, req.session?.user.id ?? null, req.headers['user-agent'] ?? ''),
      status: 201,
    });
  });
}
