import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API, FREE_TRIAL_PRODUCT_ID, ROUTES, type BillingInfo, type User } from '../../contract';
import { loadSession, MemoryStorage, reply, tokenFor } from './stateTestKit';

const user = (sub: string, isVerified: boolean): User => ({
  _id: sub,
  email: `${sub}@example.com`,
  name: '',
  createdAt: new Date(0).toISOString(),
  isVerified,
  settings: {} as User['settings'],
});

const billingFor = (creditsLeft: number): BillingInfo => ({
  creditsLeft,
  creditNotes: [],
  pendingCharges: 0,
  limits: { storageHours: 2 },
  usage: { storageHours: 0 },
  subscription: {
    status: null,
    termEnd: null,
    pendingProduct: null,
    product: {
      id: FREE_TRIAL_PRODUCT_ID,
      name: 'Free Trial',
      tagline: '',
      description: '',
      images: [],
      price: { id: 'p', unit_amount: 0, currency: 'usd', interval: 'month', interval_count: 1 },
      quota: { credits: 0, creditsLifetimeDays: 30, storageHours: 2 },
    },
  },
});

let storage: MemoryStorage;
let serverUsers: Record<string, User>;
let serverCredits: Record<string, number>;

beforeEach(() => {
  vi.resetModules();
  storage = new MemoryStorage();
  serverUsers = {};
  serverCredits = {};
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const auth = (init.headers as Record<string, string>).Authorization ?? '';
      const sub = auth ? JSON.parse(Buffer.from(auth.split('.')[1]!, 'base64url').toString()).sub : null;
      if (url === API.me && sub && serverUsers[sub]) return reply({ data: serverUsers[sub] });
      if (url === API.billingInfo && sub && serverUsers[sub]) return reply({ data: billingFor(serverCredits[sub] ?? 0) });
      return reply({ data: null, error: { code: 'token_invalid', message: 'Your session is not valid.' } }, 401);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function load() {
  const sw = await import('./serviceWorker');
  const credits = await import('./credits');
  return { ...(await loadSession()), ...sw, ...credits };
}

describe('REFRESH_ACCOUNT_DETAILS and cross-tab sync', () => {
  it('adopts a token another tab stored and fetches its user', async () => {
    const m = await load();
    serverUsers.u1 = user('u1', true);
    storage.setItem(m.TOKEN_STORAGE_KEY, tokenFor('u1'));
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.login);
    expect(m.session.user?.email).toBe('u1@example.com');
    expect(m.session.claims?.sub).toBe('u1');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('refetches the credits of the account, and clears them when the token is gone', async () => {
    const m = await load();
    serverUsers.u5 = user('u5', true);
    serverCredits.u5 = 20_000;
    storage.setItem(m.TOKEN_STORAGE_KEY, tokenFor('u5'));
    await m.refreshAccountDetails(vi.fn(), () => ROUTES.workspace);
    expect(m.creditsInfo()?.creditsLeft).toBe(20_000);
    expect(m.queryClient.getQueryData<{ info: BillingInfo }>(m.queryKeys.credits('u5'))?.info.creditsLeft).toBe(20_000);

    // Another tab bought credits: the same token, a new balance.
    serverCredits.u5 = 70_000;
    await m.refreshAccountDetails(vi.fn(), () => ROUTES.workspace);
    expect(m.creditsInfo()?.creditsLeft).toBe(70_000);

    storage.removeItem(m.TOKEN_STORAGE_KEY);
    await m.refreshAccountDetails(vi.fn(), () => ROUTES.workspace);
    await vi.waitFor(() => expect(m.creditsInfo()).toBeNull());
    // The account's queries went with its session: nothing of it is left to show.
    expect(m.queryClient.getQueryData(m.queryKeys.credits('u5'))).toBeUndefined();
  });

  it('sends an unverified user to /verify-email', async () => {
    const m = await load();
    serverUsers.u2 = user('u2', false);
    storage.setItem(m.TOKEN_STORAGE_KEY, tokenFor('u2'));
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.workspace);
    expect(navigate).toHaveBeenCalledWith(ROUTES.verifyEmail);
  });

  it('lets the email confirmation page finish instead of sending it to /verify-email', async () => {
    const m = await load();
    serverUsers.u4 = user('u4', false);
    storage.setItem(m.TOKEN_STORAGE_KEY, tokenFor('u4'));
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.confirmEmail);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('clears the session and goes to /login when the token is gone', async () => {
    const m = await load();
    serverUsers.u3 = user('u3', true);
    m.setToken(tokenFor('u3'));
    m.setUser(serverUsers.u3);
    storage.removeItem(m.TOKEN_STORAGE_KEY);
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.workspace);
    expect(m.session.token).toBeNull();
    expect(m.session.user).toBeNull();
    expect(navigate).toHaveBeenCalledWith(ROUTES.login);
  });

  it('ends the session when the server refuses the stored token', async () => {
    const m = await load();
    storage.setItem(m.TOKEN_STORAGE_KEY, tokenFor('ghost'));
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.settings);
    expect(m.session.token).toBeNull();
    expect(m.session.endedBy).toBe('invalidated');
    expect(storage.getItem(m.TOKEN_STORAGE_KEY)).toBeNull();
  });

  it('leaves a visitor where they are', async () => {
    const m = await load();
    const navigate = vi.fn();
    await m.refreshAccountDetails(navigate, () => ROUTES.register);
    expect(navigate).not.toHaveBeenCalled();
  });
});
