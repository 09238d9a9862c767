// The app's Content-Security-Policy as the browser applies it, and the harness's check that makes every
// other e2e test fail on a violation: an injected inline script is refused and reported, a
// worker's fetch to another origin is refused and reported, and the app's own page breaks nothing.
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/contract';
import { e2eSuite } from './harness';

const { app, openBrowser } = e2eSuite();

describe('Content-Security-Policy', () => {
  it('serves the app under its policy and reports what it blocks', async () => {
    const browser = await openBrowser();
    const { page } = browser;
    const answer = await page.goto(`${app.url}${ROUTES.login}`);
    const headers = answer!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    // The sign-in page itself broke nothing.
    expect(browser.cspViolations).toEqual([]);

    // An injected inline script does not run; the page's event and the console both report it.
    const injected = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__injected = true';
      document.head.appendChild(s);
      return (window as { __injected?: boolean }).__injected === true;
    });
    expect(injected).toBe(false);
    await expect.poll(() => browser.cspViolations.some((v) => v.startsWith('script-src-elem blocked inline'))).toBe(true);
    await expect.poll(() => browser.cspViolations.some((v) => v.startsWith('console: Executing inline script'))).toBe(true);

    // A worker (which takes the policy of its own script) is held to the policy too, and the console reports it.
    browser.cspViolations.splice(0);
    // A blob: worker inherits the page's policy; asked, it tries a host the policy does not allow.
    const started = page.waitForEvent('worker');
    await page.evaluate(() => {
      const source = `onmessage = () => fetch('http://127.0.0.2:9/x').then(() => postMessage('fetched'), (e) => postMessage('refused: ' + e.message));`;
      (window as { __worker?: Worker }).__worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    });
    // The harness's listener is put in the worker before anything else is evaluated there.
    await (await started).evaluate('1');
    const workerFetch = await page.evaluate(async () => {
      const w = (window as { __worker?: Worker }).__worker!;
      const message = await new Promise<string>((resolve) => {
        w.onmessage = (e) => resolve(String(e.data));
        w.postMessage('go');
      });
      w.terminate();
      return { message };
    });
    expect(workerFetch.message).toMatch(/^refused/);
    await expect.poll(() => browser.cspViolations.some((v) => /connect-src/.test(v))).toBe(true);
    browser.cspViolations.splice(0);
  });
});
