import type { Page } from 'playwright-core';
import { beforeEach, describe, expect, it } from 'vitest';
import { MSG, ROUTES } from '../../src/contract';
import { TOKEN_STORAGE_KEY } from '../../src/app/state/session';
import { createVerifiedUser, e2eSuite, screenshot, uniqueEmail, waitForPath, type Browser } from './harness';

const { app, openBrowser } = e2eSuite();
let browser: Browser;
beforeEach(async () => {
  browser = await openBrowser();
});

const path = (page: Page) => new URL(page.url()).pathname;

async function signIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: MSG.loginSubmit }).click();
}

async function logOut(page: Page) {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await waitForPath(page, ROUTES.login);
}

describe('accounts in the browser', () => {
  it('a new user registers, opens the link from the mail and lands signed in', async () => {
    const { page, context } = browser;
    const email = uniqueEmail('newcomer');
    const password = 'correct horse battery';

    await page.goto(`${app.url}${ROUTES.register}`);
    await page.getByRole('heading', { name: MSG.registerHeading }).waitFor();
    await screenshot(page, 'register');

    // The checklist follows the typing.
    const checklist = page.getByRole('list', { name: 'Password requirements' });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm password').fill('short');
    expect(await checklist.getByText(MSG.criterionLength).locator('..').getAttribute('class')).not.toContain('--met');
    expect(await checklist.getByText(MSG.criterionMatch).locator('..').getAttribute('class')).toContain('--met');
    await page.getByRole('button', { name: MSG.registerSubmit }).click();
    await page.getByText(MSG.mustAcceptTerms).waitFor();

    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm password').fill(password);
    expect(await checklist.getByText(MSG.criterionLength).locator('..').getAttribute('class')).toContain('--met');
    await page.getByRole('button', { name: 'Show passwords' }).click();
    expect(await page.getByLabel('Confirm password').getAttribute('type')).toBe('text');
    await page.getByRole('checkbox').click();
    await screenshot(page, 'register-checklist');
    await page.getByRole('button', { name: MSG.registerSubmit }).click();

    await waitForPath(page, ROUTES.verifyEmail);
    await page.getByText(email, { exact: true }).waitFor();
    const resend = page.getByRole('button', { name: MSG.resendVerification });
    expect(await resend.isDisabled()).toBe(true);
    await page.getByRole('button', { name: MSG.notYou(email) }).waitFor();
    await screenshot(page, 'verify-email');

    // The link opens in a second tab; both tabs end up in the signed-in app.
    const link = await app.mailbox.waitForLink(email, ROUTES.confirmEmail);
    expect(new URL(link).origin).toBe(app.url);
    const second = await context.newPage();
    await second.goto(link);
    await waitForPath(second, ROUTES.workspace);
    await second.getByRole('heading', { name: /Welcome/ }).waitFor();
    await second.getByText(email, { exact: true }).waitFor();
    await waitForPath(page, ROUTES.workspace);
    await page.getByText(email, { exact: true }).waitFor();
  });

  it('registering an address that exists leads to sign-in with a warning', async () => {
    const { page } = browser;
    const email = uniqueEmail('twice');
    await createVerifiedUser(app, email, 'first password 1');

    await page.goto(`${app.url}${ROUTES.register}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('another password');
    await page.getByLabel('Confirm password').fill('another password');
    await page.getByRole('checkbox').click();
    await page.getByRole('button', { name: MSG.registerSubmit }).click();

    await waitForPath(page, ROUTES.login);
    const params = new URL(page.url()).searchParams;
    expect(params.get('err')).toBe('exists');
    expect(params.get('email')).toBe(email);
    await page.getByText(MSG.emailExists).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
  });

  it('signs out and back in, and shows the server message for a wrong password', async () => {
    const { page } = browser;
    const email = uniqueEmail('returning');
    const password = 'returning password';
    await createVerifiedUser(app, email, password);

    await page.goto(`${app.url}${ROUTES.login}`);
    await page.getByRole('heading', { name: MSG.loginHeading }).waitFor();
    await page.getByText(MSG.loginSubtitle).waitFor();
    await screenshot(page, 'login');

    await signIn(page, email, 'not the password');
    await page.getByRole('alert').getByText(MSG.wrongCredentials).waitFor();
    expect(path(page)).toBe(ROUTES.login);
    await screenshot(page, 'login-error');

    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: MSG.loginSubmit }).click();
    await waitForPath(page, ROUTES.workspace);
    await page.getByText(email, { exact: true }).waitFor();

    await logOut(page);
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate((key) => localStorage.getItem(key), TOKEN_STORAGE_KEY)).toBeNull();
    // Signed out for real: a protected page sends us back to sign in.
    await page.goto(`${app.url}${ROUTES.workspace}`);
    await waitForPath(page, ROUTES.login);

    await signIn(page, email, password);
    await waitForPath(page, ROUTES.workspace);
  });

  it('resets a forgotten password and signs in with the new one', async () => {
    const { page } = browser;
    const email = uniqueEmail('forgetful');
    await createVerifiedUser(app, email, 'old password 123');

    await page.goto(`${app.url}${ROUTES.login}`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('link', { name: MSG.forgotPasswordLink }).click();
    await waitForPath(page, ROUTES.resetPassword);
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    await screenshot(page, 'reset-request');
    await page.getByRole('button', { name: 'Send reset link' }).click();

    await page.getByRole('heading', { name: MSG.checkYourEmail }).waitFor();
    const resend = page.getByRole('button', { name: 'Resend reset link' });
    expect(await resend.isDisabled()).toBe(true);
    const countdown = await page.getByText(/You can request another link in \d+ s\./).textContent();
    const seconds = Number(/(\d+) s/.exec(countdown ?? '')![1]);
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
    await page.getByRole('link', { name: 'Back to log in' }).waitFor();
    await screenshot(page, 'check-your-email');

    // A second request inside the minute, from a fresh page, is refused with the wait shown.
    await page.goto(`${app.url}${ROUTES.resetPassword}?email=${encodeURIComponent(email)}`);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText(MSG.resetLimitShown).waitFor();
    await page.getByText(/Please wait \d+ seconds before retrying\./).waitFor();
    await screenshot(page, 'reset-rate-limited');

    const link = await app.mailbox.waitForLink(email, ROUTES.resetPassword);
    expect(new URL(link).origin).toBe(app.url);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('brand new password');
    await page.getByLabel('Confirm new password').fill('brand new passwort');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText(MSG.passwordsDoNotMatch, { exact: true }).waitFor();
    await page.getByLabel('Confirm new password').fill('brand new password');
    await screenshot(page, 'set-new-password');
    await page.getByRole('button', { name: 'Set new password' }).click();

    await page.getByRole('button', { name: MSG.goToHomepage }).click();
    await waitForPath(page, ROUTES.login);

    await signIn(page, email, 'old password 123');
    await page.getByText(MSG.wrongCredentials).waitFor();
    await signIn(page, email, 'brand new password');
    await waitForPath(page, ROUTES.workspace);
  });

  it('a protected deep link survives sign-in; an unsafe next does not', async () => {
    const { page } = browser;
    const email = uniqueEmail('deeplink');
    const password = 'deep link password';
    await createVerifiedUser(app, email, password);

    await page.goto(`${app.url}/settings/password`);
    await waitForPath(page, ROUTES.login);
    expect(new URL(page.url()).searchParams.get('next')).toBe('/settings/password');
    await signIn(page, email, password);
    await waitForPath(page, '/settings/password');
    await page.getByRole('heading', { name: 'Change password' }).waitFor();

    for (const next of ['//evil.example', '/..%2fsettings', 'https://evil.example/x', '/\\evil.example']) {
      await logOut(page);
      await page.goto(`${app.url}${ROUTES.login}?next=${encodeURIComponent(next)}`);
      await signIn(page, email, password);
      await waitForPath(page, ROUTES.workspace);
      expect(new URL(page.url()).host, `next=${next}`).toBe(new URL(app.url).host);
    }
  });
});
