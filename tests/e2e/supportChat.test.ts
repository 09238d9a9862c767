// The support-chat widget: started with a local stand-in for Intercom's script once the user is
// known, identified with the token from POST /user/intercom (kept until it expires), shut down on
// logout; and on a server without chat settings, no widget and no promise of one.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ROUTES } from '../../src/contract';
import { SUPPORT_CHAT_TOKEN_KEY } from '../../src/app/supportChat/supportChat';
import { e2eSuite, waitForPath } from './harness';

const STANDIN = fs.readFileSync(path.join(import.meta.dirname, 'fixtures/support-chat-standin.js'));
let scriptRequests = 0;
const widgetHost = http.createServer((req, res) => {
  scriptRequests++;
  res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
  res.end(STANDIN);
});
await new Promise<void>((resolve) => widgetHost.listen(0, '127.0.0.1', resolve));
const widgetUrl = `http://127.0.0.1:${(widgetHost.address() as AddressInfo).port}/widget/clipseek-test`;
afterAll(() => new Promise<void>((resolve) => widgetHost.close(() => resolve())));

type Call = [string, Record<string, unknown>?];
const calls = (page: Page) =>
  page.evaluate(() => ((window as unknown as { __supportChat?: { calls: Call[] } }).__supportChat?.calls ?? []) as Call[]);
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { email: string; exp: number };

describe('with support chat configured', () => {
  const { signedIn, openBrowser, app } = e2eSuite({
    INTERCOM_APP_ID: 'clipseek-test',
    INTERCOM_SECRET: 'support-chat-test-secret',
    INTERCOM_WIDGET_URL: widgetUrl,
  });

  it('starts once the user is known, identified by a kept token, and shuts down on logout', async () => {
    const { page, email } = await signedIn('chat', ROUTES.workspace);
    const tokenCalls: string[] = [];
    page.on('request', (r) => r.url().endsWith(API.intercom) && tokenCalls.push(r.method()));
    await expect.poll(() => page.getByRole('button', { name: 'Open support chat' }).count(), { timeout: 15_000 }).toBe(1);
    const boot = (await calls(page)).find((c) => c[0] === 'boot')![1]!;
    expect(boot).toMatchObject({ app_id: 'clipseek-test', email });
    const token = boot.intercom_user_jwt as string;
    expect(claimsOf(token).email).toBe(email);
    const kept = JSON.parse((await page.evaluate((k) => localStorage.getItem(k), SUPPORT_CHAT_TOKEN_KEY))!) as {
      token: string;
      expiresAt: string;
    };
    expect(kept.token).toBe(token);
    expect(Date.parse(kept.expiresAt)).toBeGreaterThan(Date.now());

    // A reload boots with the kept token: no new token is asked for.
    tokenCalls.length = 0;
    await page.reload();
    await expect.poll(async () => (await calls(page)).filter((c) => c[0] === 'boot').length, { timeout: 15_000 }).toBe(1);
    expect((await calls(page)).find((c) => c[0] === 'boot')![1]!.intercom_user_jwt).toBe(token);
    expect(tokenCalls).toEqual([]);

    // An expired token is fetched again.
    await page.evaluate(
      ([k, v]) => localStorage.setItem(k!, v!),
      [SUPPORT_CHAT_TOKEN_KEY, JSON.stringify({ ...kept, expiresAt: new Date(Date.now() - 1000).toISOString() })],
    );
    await page.reload();
    await expect.poll(async () => (await calls(page)).filter((c) => c[0] === 'boot').length, { timeout: 15_000 }).toBe(1);
    expect(tokenCalls).toEqual(['POST']);

    // Logout shuts the widget down and forgets the token.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await waitForPath(page, ROUTES.login);
    await expect.poll(async () => (await calls(page)).some((c) => c[0] === 'shutdown')).toBe(true);
    expect(await page.getByRole('button', { name: 'Open support chat' }).count()).toBe(0);
    expect(await page.evaluate((k) => localStorage.getItem(k), SUPPORT_CHAT_TOKEN_KEY)).toBeNull();
    expect(scriptRequests).toBeGreaterThan(0);
  });

  it('is promised on the legal pages', async () => {
    const { page } = await openBrowser();
    await page.goto(`${app.url}${ROUTES.privacy}`);
    await expect.poll(() => page.getByText('payment processing and the support chat').count()).toBe(1);
  });
});

describe('without support chat settings', () => {
  const { signedIn, openBrowser, app } = e2eSuite();
  let before = 0;
  beforeAll(() => {
    before = scriptRequests;
  });

  it('shows no widget, loads no script and promises none', async () => {
    const { page } = await signedIn('nochat', ROUTES.workspace);
    const health = await page.evaluate(async (url) => (await fetch(url)).json(), `${app.url}${API.health}`);
    expect(JSON.stringify(health)).toContain('"supportChat":null');
    await page.waitForTimeout(1500);
    expect(await page.evaluate(() => typeof (window as unknown as { Intercom?: unknown }).Intercom)).toBe('undefined');
    expect(await page.getByRole('button', { name: 'Open support chat' }).count()).toBe(0);
    expect(scriptRequests).toBe(before);
  });

  it('the legal pages do not promise it', async () => {
    const { page } = await openBrowser();
    await page.goto(`${app.url}${ROUTES.privacy}`);
    await expect.poll(() => page.getByText('email delivery and payment processing').count()).toBe(1);
    expect(await page.getByText('support chat').count()).toBe(0);
  });
});
