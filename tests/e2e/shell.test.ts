import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API, DRAWER_CLOSED_PX, DRAWER_OPEN_PX, MSG, ROUTES } from '../../src/contract';
import { createVerifiedUser, e2eSuite, screenshot, uniqueEmail, waitForPath, type Viewport } from './harness';

const { app, openBrowser, signedIn } = e2eSuite();

/** A verified account, signed in through the login screen, on `path`. */
const signedInAt = (path: string, viewport?: Viewport) => signedIn('shell', path, viewport);

const drawerWidth = (page: Page) => page.locator('aside.drawer').evaluate((el) => el.getBoundingClientRect().width);

describe('the signed-in shell', () => {
  it('has a drawer that collapses, and an avatar menu with the account links', async () => {
    const { page, email } = await signedInAt(ROUTES.workspace);
    expect(await drawerWidth(page)).toBe(DRAWER_OPEN_PX);
    await page.getByRole('button', { name: 'Collapse navigation' }).click();
    await page.waitForFunction((w) => document.querySelector('aside.drawer')!.getBoundingClientRect().width === w, DRAWER_CLOSED_PX);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.waitForFunction((w) => document.querySelector('aside.drawer')!.getBoundingClientRect().width === w, DRAWER_OPEN_PX);

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    for (const name of ['Settings', 'Privacy', 'Terms', 'Copyright', 'Clipseek on GitHub', 'Log out'])
      await menu.getByRole('menuitem', { name }).waitFor();
    await menu.getByText(email).waitFor();
    await screenshot(page, 'shell-drawer-avatar-menu');

    await menu.getByRole('menuitem', { name: 'Copyright' }).click();
    await waitForPath(page, ROUTES.terms);
    await page
      .locator('#copyright')
      .getByText(/All rights reserved/)
      .waitFor();
    await page.getByText(/at least 30 days before they take effect/).waitFor();
    await screenshot(page, 'terms');
    await page.goto(`${app.url}${ROUTES.privacy}`);
    await page.getByText(/at least 16 years old/).waitFor();
  });

  it('uses a temporary drawer over the page on narrow windows', async () => {
    const { page } = await signedInAt(ROUTES.workspace, { width: 390, height: 844 });
    expect(await page.locator('aside.drawer').count()).toBe(0);
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const sheet = page.getByRole('dialog', { name: 'Navigation' });
    await sheet.waitFor();
    expect(Math.round((await sheet.boundingBox())!.width)).toBe(DRAWER_OPEN_PX);
    await screenshot(page, 'shell-mobile-drawer');
    await sheet.getByRole('link', { name: 'Libraries' }).click();
    await waitForPath(page, ROUTES.libraries);
    await sheet.waitFor({ state: 'detached' });
  });

  it('settings: no tab goes to billing, the toggle switches tabs, back uses history, password changes', async () => {
    const { page, password } = await signedInAt(ROUTES.workspace);
    await page.getByRole('link', { name: 'Settings', exact: true }).first().click();
    await waitForPath(page, '/settings/billing');
    await page.getByRole('radio', { name: 'Password' }).click();
    await waitForPath(page, '/settings/password');

    const form = page.locator('form');
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await form.getByText(MSG.currentPasswordRequired).waitFor();
    await page.getByLabel('Current password').fill('wrong password');
    await page.getByLabel('New password', { exact: true }).fill('a better password');
    await page.getByLabel('Confirm new password').fill('a better passwort');
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await form.getByText(MSG.passwordsDoNotMatchDot).waitFor();
    await page.getByLabel('Confirm new password').fill('a better password');
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await form.getByText(MSG.wrongCurrentPassword).waitFor();
    await page.getByText(MSG.changePasswordFailedToast, { exact: true }).waitFor();
    await screenshot(page, 'settings-password-error');

    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Change password', exact: true }).click();
    await page.getByText(MSG.passwordChanged, { exact: true }).waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    // The session survives the change (the answer carried a fresh token).
    await page.reload();
    await page.getByLabel('Current password').waitFor();
    expect(new URL(page.url()).pathname).toBe('/settings/password');
    await screenshot(page, 'settings-password');

    await page.getByRole('button', { name: 'Back' }).click();
    await waitForPath(page, ROUTES.workspace);
  });

  it('shows the impersonation banner for support sessions, with the minutes left, and hides it', async () => {
    const { page } = await openBrowser();
    const email = uniqueEmail('impersonated');
    await createVerifiedUser(app, email, 'impersonated pass');
    const { token } = await app.server.accounts.impersonate(email, 'support@clipseek.test', 30);

    await page.goto(`${app.url}${ROUTES.impersonate}#token=${encodeURIComponent(token)}`);
    await waitForPath(page, ROUTES.workspace);
    expect(new URL(page.url()).hash).toBe('');
    const banner = page.getByRole('alert').filter({ hasText: MSG.impersonationWarning });
    await banner.getByText(MSG.fullControl).waitFor();
    await banner.getByText(email).waitFor();
    const minutes = Number(/(\d+) minutes left/.exec((await banner.textContent()) ?? '')?.[1]);
    expect(minutes).toBeGreaterThanOrEqual(29);
    expect(minutes).toBeLessThanOrEqual(30);
    await screenshot(page, 'impersonation-banner');
    await banner.getByRole('button', { name: 'Hide' }).click();
    await banner.waitFor({ state: 'detached' });
  });

  it('reports a crash in the error dialog, sends the feedback and reloads', async () => {
    const { browser, page, email } = await signedInAt(ROUTES.workspace);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e: something broke');
      });
    });
    const dialog = page.getByRole('dialog', { name: MSG.errorDialogTitle });
    await dialog.waitFor();
    expect(await dialog.getByLabel('Email').inputValue()).toBe(email);
    await dialog.getByLabel('Name').fill('Ada');
    await dialog.getByLabel('Comments').fill('I clicked around.');
    await dialog.getByRole('button', { name: MSG.dontSend }).waitFor();
    await screenshot(page, 'error-dialog');

    const feedback = page.waitForRequest((r) => new URL(r.url()).pathname === API.feedback && r.method() === 'POST');
    const reloaded = page.waitForEvent('load');
    await dialog.getByRole('button', { name: MSG.sendFeedback }).click();
    const response = await (await feedback).response();
    expect(response?.status()).toBe(201);
    await reloaded;
    await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    // The thrown error is the point of this test, not a failure of it.
    browser.pageErrors.splice(0);
  });

  it('visitors see pricing, the legal pages and a narrow login without the hero', async () => {
    const { page } = await openBrowser({ width: 390, height: 844 });
    await page.goto(`${app.url}${ROUTES.pricing}`);
    await page.getByRole('heading', { name: 'Pricing' }).waitFor();
    await page.getByRole('link', { name: 'Create an account' }).first().waitFor();
    await page.goto(`${app.url}${ROUTES.privacy}`);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    await screenshot(page, 'privacy-mobile');
    await page.goto(`${app.url}${ROUTES.login}`);
    await page.getByRole('heading', { name: MSG.loginHeading }).waitFor();
    expect(await page.locator('.hero').isVisible()).toBe(false);
    await screenshot(page, 'login-mobile');
    await page.goto(`${app.url}/no/such/page`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();

    // A used or made-up confirmation code shows the server's message and a way to sign in.
    await page.goto(`${app.url}${ROUTES.confirmEmail}?code=not-a-real-code`);
    await page.getByText(MSG.codeInvalid).waitFor();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await waitForPath(page, ROUTES.login);
    // Without a code it goes straight to /, which for a visitor ends at sign-in.
    await page.goto(`${app.url}${ROUTES.confirmEmail}`);
    await page.waitForURL((u) => u.pathname === ROUTES.login && u.searchParams.get('next') === ROUTES.workspace);
  });
});
