import type { FastifyInstance } from 'fastify';
import { API, type AccountCalls } from '../../contract';
import { toUser, type AccountService } from '../services/account.service';
import { optionalAuth, requireAuth, sessionOf } from './auth';
import { ok, reply } from './envelope';

const str = (maxLength = 1024) => ({ type: 'string', maxLength }) as const;
const body = (props: Record<string, object>, required = Object.keys(props)) => ({
  body: { type: 'object', properties: props, required, additionalProperties: false },
});

type Body<K extends keyof AccountCalls> = { Body: AccountCalls[K]['body'] };

/** Spec section 7 account calls, at their exact paths. */
export function accountRoutes(app: FastifyInstance, accounts: AccountService) {
  const auth = { preHandler: requireAuth(accounts) };

  app.post<Body<'login'>>(API.login, { schema: body({ email: str(320), password: str() }, []) }, async (req, res) => {
    const { user, token } = await accounts.login(req.body.email ?? '', req.body.password ?? '', req.ip);
    return reply(req, res, ok(user, token));
  });

  app.post<Body<'register'>>(API.register, { schema: body({ email: str(320), password: str() }) }, async (req, res) => {
    const { user, token } = await accounts.register(req.body.email, req.body.password, req.ip);
    return reply(req, res, { data: user, token, status: 201 });
  });

  // Sessions are stateless signed tokens: signing out is dropping the token on the client.
  app.post(API.logout, async (req, res) => reply(req, res, ok({ ok: true })));

  app.post<Body<'resetRequest'>>(API.resetRequest, { schema: body({ email: str(320) }) }, async (req, res) =>
    reply(req, res, ok(await accounts.requestPasswordReset(req.body.email, req.ip))),
  );

  app.post<Body<'reset'>>(API.reset, { schema: body({ token: str(200), password: str() }) }, async (req, res) =>
    reply(req, res, ok(await accounts.resetPassword(req.body.token, req.body.password))),
  );

  app.post<Body<'changePassword'>>(
    API.changePassword,
    { ...auth, schema: body({ oldPassword: str(), newPassword: str() }, []) },
    async (req, res) => {
      const { user, token } = await accounts.changePassword(sessionOf(req), req.body.oldPassword ?? '', req.body.newPassword ?? '');
      return reply(req, res, ok(user, token));
    },
  );

  app.post<Body<'verifyEmail'>>(API.verifyEmail, { schema: body({ token: str(200) }) }, async (req, res) => {
    const { user, token } = await accounts.verifyEmail(req.body.token);
    return reply(req, res, ok(user, token));
  });

  app.post<Body<'resendVerification'>>(API.resendVerification, { schema: body({ email: str(320) }) }, async (req, res) =>
    reply(req, res, ok(await accounts.resendVerification(req.body.email, req.ip))),
  );

  app.post(API.refreshToken, auth, async (req, res) => {
    const { user, token } = await accounts.refresh(sessionOf(req));
    return reply(req, res, ok(user, token));
  });

  app.get(API.me, auth, async (req, res) => reply(req, res, ok(toUser(sessionOf(req).user))));

  app.post<Body<'meSettings'>>(API.meSettings, { ...auth, schema: { body: { type: 'object' } } }, async (req, res) =>
    reply(req, res, ok(await accounts.updateSettings(sessionOf(req), req.body))),
  );

  app.post(API.intercom, auth, async (req, res) => reply(req, res, ok(await accounts.intercomToken(sessionOf(req)))));

  app.post<Body<'feedback'>>(
    API.feedback,
    {
      preHandler: optionalAuth(accounts),
      schema: body({ name: str(200), email: str(320), comments: str(10_000), error: str(20_000) }, ['comments', 'error']),
    },
    async (req, res) => {
      const b = req.body;
      const input = { name: b.name ?? '', email: b.email ?? '', comments: b.comments, error: b.error };
      return reply(req, res, {
        data: await accounts.feedback(input, req.session?.user.id ?? null, req.headers['user-agent'] ?? ''),
        status: 201,
      });
    },
  );
}
