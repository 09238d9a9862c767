// Security headers as served: the app's Content-Security-Policy on HTML and scripts, a strict one on
// API answers (JSON, msgpack, errors), nosniff, frame denial and referrer policy everywhere, HSTS only
// over TLS, and the support-chat widget's origin in the policy only when the widget is configured.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { API, MSGPACK } from '../../src/contract';
import { buildHttpApp, createLogger } from '../../src/server/app';
import { loadConfig } from '../../src/server/config';
import { API_CSP } from '../../src/server/http/securityHeaders';

const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-headers-'));
fs.mkdirSync(path.join(webDir, 'assets'));
fs.writeFileSync(
  path.join(webDir, 'index.html'),
  '<!doctype html><title>Clipseek</title><script type="module" src="/assets/app.js"></script>',
);
fs.writeFileSync(path.join(webDir, 'assets/app.js'), 'export {};');
fs.writeFileSync(path.join(webDir, 'service-worker.js'), 'self.addEventListener("install", () => self.skipWaiting());');
fs.writeFileSync(path.join(webDir, 'assets/core.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
const apps: FastifyInstance[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
  fs.rmSync(webDir, { recursive: true, force: true });
});

/** The HTTP app alone (no database: these calls reach only the health route, the web app and 404s). */
async function appWith(env: Record<string, string> = {}) {
  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIR: webDir, DATA_DIR: webDir, ...env });
  const health = () => ({ capabilities: [], off: [], supportChat: null });
  const app = await buildHttpApp(config, createLogger(config), { health, routes: [] });
  apps.push(app);
  return app;
}

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.split(' ')[0] === name);

describe('security headers', () => {
  it('puts the app policy on HTML and scripts, the strict one on API answers, and the common headers on all', async () => {
    const app = await appWith();
    const page = await app.inject({ url: '/library/some-page', headers: { accept: 'text/html' } });
    const script = await app.inject({ url: '/assets/app.js' });
    const json = await app.inject({ url: API.health, headers: { accept: 'application/json' } });
    const msgpack = await app.inject({ url: API.health, headers: { accept: MSGPACK } });
    const missing = await app.inject({ url: '/no/such/call.json', headers: { accept: 'application/json' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(msgpack.headers['content-type']).toMatch(/^application\/msgpack/);
    expect(missing.statusCode).toBe(404);

    for (const r of [page, script]) {
      const csp = String(r.headers['content-security-policy']);
      expect(directive(csp, 'default-src')).toBe("default-src 'self'");
      expect(directive(csp, 'script-src')).toBe("script-src 'self' 'wasm-unsafe-eval'");
      expect(directive(csp, 'worker-src')).toBe("worker-src 'self' blob:");
      expect(directive(csp, 'media-src')).toBe("media-src 'self' blob:");
      expect(directive(csp, 'connect-src')).toBe("connect-src 'self' blob:");
      expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'none'");
      expect(directive(csp, 'object-src')).toBe("object-src 'none'");
      // Served over plain http: no upgrade of the app's own http requests.
      expect(directive(csp, 'upgrade-insecure-requests')).toBeUndefined();
    }
    for (const r of [json, msgpack, missing]) expect(r.headers['content-security-policy']).toBe(API_CSP);
    for (const r of [page, script, json, msgpack, missing]) {
      expect(r.headers['x-content-type-options']).toBe('nosniff');
      expect(r.headers['x-frame-options']).toBe('DENY');
      expect(r.headers['referrer-policy']).toBe('same-origin');
      expect(r.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('gives a 304 (a revalidation of a cached file) the policy its 200 carried', async () => {
    const app = await appWith();
    const policyOf = (r: { headers: Record<string, unknown> }) => String(r.headers['content-security-policy']);
    const cases = [
      // A module worker's script, the service worker, the app's page at its root and at a client route.
      { url: '/assets/app.js', accept: '*/*', policy: 'app' },
      { url: '/service-worker.js', accept: '*/*', policy: 'app' },
      { url: '/', accept: 'text/html', policy: 'app' },
      { url: '/library/some-page', accept: 'text/html', policy: 'app' },
      // No document or script: the strict policy, 200 and 304.
      { url: '/assets/core.wasm', accept: '*/*', policy: 'api' },
    ];
    for (const { url, accept, policy } of cases) {
      const first = await app.inject({ url, headers: { accept } });
      expect(first.statusCode, url).toBe(200);
      const again = await app.inject({ url, headers: { accept, 'if-none-match': String(first.headers.etag) } });
      expect(again.statusCode, url).toBe(304);
      // The browser merges a 304's headers into its cached copy: a worker started from a cached script
      // runs under the 304's policy (the API's, default-src 'none', stopped the merge preview's worker).
      expect(policyOf(again), url).toBe(policyOf(first));
      if (policy === 'app') expect(directive(policyOf(again), 'script-src'), url).toBe("script-src 'self' 'wasm-unsafe-eval'");
      else expect(policyOf(again), url).toBe(API_CSP);
    }
  });

  it('lets browsers keep hashed assets for a year without asking, and revalidate everything else', async () => {
    const app = await appWith();
    const cacheOf = async (url: string, accept = '*/*') => (await app.inject({ url, headers: { accept } })).headers['cache-control'];
    // (@fastify/static's own max-age=0 used to replace this one.)
    expect(await cacheOf('/assets/app.js')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/assets/core.wasm')).toBe('public, max-age=31536000, immutable');
    expect(await cacheOf('/service-worker.js')).toBe('no-cache');
  });

  it('sends HSTS when APP_URL is https, and behind a trusted proxy only when it says https', async () => {
    const tls = await appWith({ APP_URL: 'https://clips.example.com' });
    const r = await tls.inject({ url: API.health, headers: { accept: 'application/json' } });
    expect(r.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    const html = await tls.inject({ url: '/', headers: { accept: 'text/html' } });
    expect(directive(String(html.headers['content-security-policy']), 'upgrade-insecure-requests')).toBe('upgrade-insecure-requests');

    const proxied = await appWith({ TRUST_PROXY: 'true' });
    const overTls = await proxied.inject({ url: API.health, headers: { accept: 'application/json', 'x-forwarded-proto': 'https' } });
    const plain = await proxied.inject({ url: API.health, headers: { accept: 'application/json', 'x-forwarded-proto': 'http' } });
    expect(overTls.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    // Without TRUST_PROXY the header is anyone's to send: it is not believed.
    const untrusted = await appWith();
    const forged = await untrusted.inject({ url: API.health, headers: { accept: 'application/json', 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it("allows the support-chat widget's origin only when the widget is configured", async () => {
    const widget = 'http://127.0.0.1:5599/widget/clipseek-test';
    const chat = { INTERCOM_APP_ID: 'clipseek-test', INTERCOM_SECRET: 'chat-secret', INTERCOM_WIDGET_URL: widget };
    const policyOf = async (env: Record<string, string>) =>
      String((await (await appWith(env)).inject({ url: '/', headers: { accept: 'text/html' } })).headers['content-security-policy']);

    const withChat = await policyOf(chat);
    for (const name of ['script-src', 'connect-src', 'img-src', 'style-src', 'frame-src'])
      expect(directive(withChat, name)?.split(' ')).toContain('http://127.0.0.1:5599');
    expect(withChat).not.toContain('intercom');

    const without = await policyOf({});
    expect(without).not.toContain('127.0.0.1:5599');
    expect(directive(without, 'frame-src')).toBe("frame-src 'none'");
    // The widget URL alone, without the app id and secret that turn the widget on, opens nothing.
    expect(await policyOf({ INTERCOM_WIDGET_URL: widget })).not.toContain('127.0.0.1:5599');

    // Intercom's own script: its hosts for the API, websockets, CDNs and frames.
    const intercom = await policyOf({ INTERCOM_APP_ID: 'abc123', INTERCOM_SECRET: 'chat-secret' });
    expect(directive(intercom, 'script-src')).toContain('https://widget.intercom.io');
    expect(directive(intercom, 'connect-src')).toContain('wss://*.intercom.io');
    expect(directive(intercom, 'frame-src')).toContain('https://intercom-sheets.com');
  });

  it('lets the browser reach an S3 blob store named by S3_ENDPOINT', async () => {
    const app = await appWith({ BLOB_STORE: 's3', S3_BUCKET: 'media', S3_ENDPOINT: 'http://127.0.0.1:4569' });
    const csp = String((await app.inject({ url: '/', headers: { accept: 'text/html' } })).headers['content-security-policy']);
    for (const name of ['connect-src', 'media-src', 'img-src']) expect(directive(csp, name)?.split(' ')).toContain('http://127.0.0.1:4569');
  });
});
