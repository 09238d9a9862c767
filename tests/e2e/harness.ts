import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { API, MSG, ROUTES } from '../../src/contract';
import { startServer } from '../../src/server/main';
import { seedEmbeddedDatabase } from '../integration/support/pgTemplate';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(REPO, 'dist');
/**
 * The shipped demo samples, for the files whose tests use them: `e2eSuite(WITH_DEMO)`. Other apps
 * start with an empty demo folder: indexing the two samples after the first sign-up would hold up
 * the ingest worker behind a test's own upload, and both cores, for tens of seconds.
 */
export const WITH_DEMO = { DEMO_DIR: path.join(REPO, 'assets/demo') };
export const SCREENSHOT_DIR = path.join(REPO, 'tests/e2e/screenshots');

// ---------------------------------------------------------------------------------------------
// Build

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds the web app into dist/ unless the build there is newer than every source file it uses. */
export function ensureBuilt() {
  const index = path.join(DIST, 'index.html');
  // (the app bundles the engine and the workers too: a change there alone must rebuild it)
  const sources = ['src/app', 'src/contract', 'src/engine', 'src/workers', 'public'].map((d) => newestMtime(path.join(REPO, d)));
  if (fs.existsSync(index) && fs.statSync(index).mtimeMs > Math.max(...sources)) return;
  execFileSync(path.join(REPO, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], { cwd: REPO, stdio: 'inherit' });
}

// ---------------------------------------------------------------------------------------------
// Mail

export interface Mail {
  to: string;
  subject: string;
  /** The text/plain part, decoded. */
  text: string;
  links: string[];
}

function decodeBody(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable': {
      const joined = body.replace(/=\r?\n/g, '');
      const bytes: number[] = [];
      for (let i = 0; i < joined.length; i++) {
        const hex = joined[i] === '=' ? joined.slice(i + 1, i + 3) : '';
        if (/^[0-9A-F]{2}$/i.test(hex)) {
          bytes.push(parseInt(hex, 16));
          i += 2;
        } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
      }
      return Buffer.from(bytes).toString('utf8');
    }
    default:
      return body;
  }
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function parsePart(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

/** Finds the text/plain part of a (possibly nested multipart) message and decodes it. */
export function textPartOf(raw: string): string {
  const part = parsePart(raw);
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const pieces = part.body.split(`--${boundary}`).slice(1);
    for (const piece of pieces) {
      if (piece.startsWith('--')) break;
      const text = textPartOf(piece.replace(/^\r?\n/, ''));
      if (text) return text;
    }
    return '';
  }
  if (!/^text\/plain/i.test(type)) return '';
  return decodeBody(part.body, part.headers['content-transfer-encoding']);
}

/** A real SMTP receiver on loopback that keeps every message it is handed. */
export async function startMailbox() {
  const mails: Mail[] = [];
  const listeners = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers } = parsePart(raw);
        const text = textPartOf(raw);
        mails.push({
          to: session.envelope.rcptTo[0]?.address ?? '',
          subject: headers.subject ?? '',
          text,
          links: [...new Set(text.match(/https?:\/\/[^\s"<>]+/g) ?? [])],
        });
        listeners.forEach((fn) => fn());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Resolves with the first mail to `to` whose link path is `linkPath`, arriving after `skip` such mails. */
    waitForLink(to: string, linkPath: string, skip = 0, timeoutMs = 15_000): Promise<string> {
      const find = () =>
        mails
          .filter((m) => m.to.toLowerCase() === to.toLowerCase())
          .flatMap((m) => m.links)
          .filter((l) => new URL(l).pathname === linkPath)[skip];
      return new Promise((resolve, reject) => {
        const check = () => {
          const link = find();
          if (!link) return;
          cleanup();
          resolve(link);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`No mail to ${to} with a ${linkPath} link within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type Mailbox = Awaited<ReturnType<typeof startMailbox>>;

// ---------------------------------------------------------------------------------------------
// Server

/** The real server on a fresh data directory, serving dist/ and the API on one origin; `env` adds settings. */
export async function startApp(env: Record<string, string> = {}) {
  ensureBuilt();
  const mailbox = await startMailbox();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-'));
  const noDemo = path.join(dataDir, 'no-demo');
  fs.mkdirSync(noDemo);
  if (!env.DATABASE_URL) await seedEmbeddedDatabase(dataDir);
  const server = await startServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SMTP_URL: mailbox.url,
    LOG_LEVEL: 'warn',
    WEB_DIR: DIST,
    DEMO_DIR: noDemo,
    ...env,
  });
  const url = server.url.replace(/\/$/, '');
  return {
    url,
    server,
    mailbox,
    async close() {
      await server.close();
      await mailbox.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export type App = Awaited<ReturnType<typeof startApp>>;

// ---------------------------------------------------------------------------------------------
// Browser

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Requests to any host other than 127.0.0.1, aborted; a test fails when this is not empty. */
  offHost: string[];
  /** Uncaught page errors. */
  pageErrors: string[];
  /**
   * Content-Security-Policy violations: the page's and its workers' `securitypolicyviolation` events
   * and the console's CSP errors; a test fails when this is not empty.
   */
  cspViolations: string[];
  close(): Promise<void>;
}

export interface Viewport {
  width: number;
  height: number;
}

export interface BrowserOptions {
  /**
   * Keep Chromium's HTTP cache, as a returning visitor's browser does: revalidations (304s) happen.
   * Playwright turns the cache off while any request is routed, so other hosts are then refused by
   * the browser's resolver instead of aborted by a route, and still recorded in `offHost`.
   */
  httpCache?: boolean;
  /** A phone: touch events (hasTouch) and a mobile viewport (isMobile, its meta viewport honoured). */
  touch?: boolean;
}

const isOffHost = (href: string) => {
  const url = new URL(href);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1';
};

/** Debian Chromium, headless, with a fresh profile; every request off 127.0.0.1 is aborted and recorded. */
export async function openBrowser(viewport: Viewport = { width: 1440, height: 900 }, options: BrowserOptions = {}): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport,
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...(options.httpCache ? ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] : []),
    ],
  });
  const offHost: string[] = [];
  const pageErrors: string[] = [];
  if (options.httpCache) {
    context.on('request', (r) => {
      if (isOffHost(r.url())) offHost.push(r.url());
    });
  } else {
    await context.route('**/*', (route) => {
      const href = route.request().url();
      if (isOffHost(href)) {
        offHost.push(href);
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
  }
  const cspViolations: string[] = [];
  await context.exposeBinding('__clipseekCspViolation', (_source, text: string) => void cspViolations.push(text));
  await context.addInitScript({ content: MEDIA_JOURNAL });
  await context.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) => window.__clipseekCspViolation(
      e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline') + ' (' + e.sourceFile + ':' + e.lineNumber + ')'));`,
  });
  const watch = (p: Page) => {
    p.on('pageerror', (e) => pageErrors.push(e.message));
    p.on('console', (m) => {
      if (/Content[ -]Security[ -]Policy/i.test(m.text())) cspViolations.push(`console: ${m.text()}`);
    });
    // Chromium does not log a worker's violations to the page's console; the worker's own event is
    // relayed through its console, which reaches the page's (from the moment the worker is seen).
    p.on('worker', (w) => {
      w.evaluate(
        `self.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy violation in a worker: ' +
          e.effectiveDirective + ' blocked ' + (e.blockedURI || 'inline')))`,
      ).catch(() => undefined);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    offHost,
    pageErrors,
    cspViolations,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-window screenshot to tests/e2e/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Wait for the hero clips to show a frame, so the picture shows the page as a user sees it.
  await page.waitForFunction(() => [...document.querySelectorAll('video')].every((v) => v.readyState >= 2), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

export const waitForPath = (page: Page, pathname: string | RegExp) =>
  page.waitForURL((u) => (typeof pathname === 'string' ? u.pathname === pathname : pathname.test(u.pathname)));

// ---------------------------------------------------------------------------------------------
// Accounts

export const uniqueEmail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Signs in through the login page, which then goes on to `next`. */
export async function signIn(page: Page, appUrl: string, email: string, password: string, next: string) {
  await page.goto(`${appUrl}${ROUTES.login}?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: MSG.loginSubmit }).click();
}

/** Registers and verifies an account through the API and the mailbox, for tests about what comes after. */
export async function createVerifiedUser(app: Pick<App, 'url' | 'mailbox'>, email: string, password: string) {
  const call = (p: string, body: object) =>
    fetch(`${app.url}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (!r.ok) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
      return r.json() as Promise<{ data: unknown; token?: string }>;
    });
  await call(API.register, { email, password });
  const link = await app.mailbox.waitForLink(email, ROUTES.confirmEmail);
  await call(API.verifyEmail, { token: new URL(link).searchParams.get('code') });
}

// ---------------------------------------------------------------------------------------------
// Suite

/** The app of an e2e file, readable in its tests and in hooks registered after `e2eSuite()`. */
export type SuiteApp = Pick<App, 'url' | 'server' | 'mailbox'>;

export interface E2eSuite {
  app: SuiteApp;
  /**
   * Opens this test's browser. After the test it is closed, and the test fails if the page asked a
   * host other than 127.0.0.1, threw an uncaught error or broke the Content-Security-Policy.
   */
  openBrowser(viewport?: Viewport, options?: BrowserOptions): Promise<Browser>;
  /** Opens this test's browser on a new verified account, signed in through the login screen and landed on `path`. */
  signedIn(
    tag: string,
    path: string,
    viewport?: Viewport,
  ): Promise<{ browser: Browser; page: Page; context: BrowserContext; email: string; password: string }>;
}

/**
 * The set-up of an e2e file: the app starts once before its tests and closes after them; each test
 * opens at most one browser, which is checked and closed after it.
 */
export function e2eSuite(env: Record<string, string> = {}): E2eSuite {
  let started: App | undefined;
  let browser: Browser | null = null;

  beforeAll(async () => {
    started = await startApp(env);
  });
  afterAll(async () => {
    await started?.close();
  });
  afterEach(async () => {
    if (!browser) return;
    const { offHost, pageErrors, cspViolations } = browser;
    await browser.close();
    browser = null;
    expect(offHost, 'requests to hosts other than 127.0.0.1').toEqual([]);
    expect(pageErrors, 'uncaught errors in the page').toEqual([]);
    expect(cspViolations, 'Content-Security-Policy violations').toEqual([]);
  });

  const current = () => {
    if (!started) throw new Error('The app starts in the beforeAll hook of e2eSuite()');
    return started;
  };
  const app: SuiteApp = {
    get url() {
      return current().url;
    },
    get server() {
      return current().server;
    },
    get mailbox() {
      return current().mailbox;
    },
  };
  const open = async (viewport?: Viewport, options?: BrowserOptions) => {
    if (browser) throw new Error('This test has opened its browser already');
    browser = await openBrowser(viewport, options);
    return browser;
  };

  return {
    app,
    openBrowser: open,
    async signedIn(tag, path, viewport) {
      const opened = await open(viewport);
      const email = uniqueEmail(tag);
      const password = `${tag} password`;
      await createVerifiedUser(app, email, password);
      await signIn(opened.page, app.url, email, password, path);
      await waitForPath(opened.page, path);
      return { browser: opened, page: opened.page, context: opened.context, email, password };
    },
  };
}

/** A call of the API with the page's own session (its stored token), for what the screens do not show. */
export function apiCall<T>(page: Page, method: 'GET' | 'POST', p: string, body?: unknown): Promise<T> {
  return page.evaluate(
    async ({ method, p, body }) => {
      const r = await fetch(p, {
        method,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          authorization: `Bearer ${localStorage.getItem('clipseek.token')}`,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await r.json()) as { data: unknown; error?: { message: string } };
      if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${json.error?.message}`);
      return json.data;
    },
    { method, p, body },
  ) as Promise<T>;
}

/**
 * Every page keeps a journal of its media elements' events (not timeupdate), so that a test whose
 * video does not do what it expects can say what the video did instead.
 */
const MEDIA_JOURNAL = `(() => {
  const journal = (window.__clipseekMedia = []);
  const t0 = performance.now();
  for (const type of ['loadstart', 'loadedmetadata', 'canplay', 'play', 'playing', 'pause', 'waiting', 'stalled', 'seeking', 'seeked', 'ended', 'emptied', 'error'])
    document.addEventListener(type, (e) => {
      const v = e.target;
      if (!(v instanceof HTMLMediaElement)) return;
      const name = v.getAttribute('aria-label') || v.className || v.tagName.toLowerCase();
      journal.push(Math.round(performance.now() - t0) + ' ms ' + name + ': ' + type + ' at ' + v.currentTime.toFixed(2) + ' s' + (v.error ? ' (' + v.error.message + ')' : ''));
      if (journal.length > 300) journal.shift();
    }, true);
})();`;

/** What `waitForVideo` waits for: all the given conditions at once. */
export interface VideoState {
  /** currentTime beyond this (seconds). */
  after?: number;
  /** Playing (not paused), or paused. */
  paused?: boolean;
}

/**
 * Waits until the <video> that `selector` finds is in `state`. On timeout the error says where the
 * video was (time, paused, readyState, networkState, error, what it buffered) and the media events
 * the page saw, rather than only that the time ran out.
 */
export async function waitForVideo(page: Page, selector: string, state: VideoState, timeout = 30_000) {
  try {
    await page.waitForFunction(
      ({ selector, state }) => {
        const v = document.querySelector<HTMLVideoElement>(selector);
        if (!v) return false;
        if (state.after !== undefined && !(v.currentTime > state.after)) return false;
        return state.paused === undefined || v.paused === state.paused;
      },
      { selector, state },
      { timeout },
    );
  } catch (e) {
    const seen = await page
      .evaluate((selector) => {
        const v = document.querySelector<HTMLVideoElement>(selector);
        const buffered = v
          ? Array.from({ length: v.buffered.length }, (_, i) => `${v.buffered.start(i).toFixed(2)}-${v.buffered.end(i).toFixed(2)}`)
          : [];
        const now = v
          ? `time ${v.currentTime.toFixed(2)} s, paused ${v.paused}, readyState ${v.readyState}, networkState ${v.networkState}, ` +
            `error ${v.error?.message ?? 'none'}, buffered [${buffered.join(', ')}]`
          : 'no such video';
        return `${now}\nmedia events:\n${(window as unknown as { __clipseekMedia?: string[] }).__clipseekMedia?.join('\n') ?? '(none)'}`;
      }, selector)
      .catch((why: unknown) => `(the page could not be read: ${String(why)})`);
    throw new Error(`${selector} did not reach ${JSON.stringify(state)} in ${timeout} ms: ${seen}`, { cause: e });
  }
}

/** The frame number the dialog's <video> shows now, read from its stripes (callers poll until it settles). */
export function shownFrame(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const video = document.querySelector<HTMLVideoElement>('[role=dialog] video')!;
    if (video.seeking) await new Promise((r) => video.addEventListener('seeked', r, { once: true }));
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 360;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.drawImage(video, 0, 0, 640, 360);
    let n = 0;
    for (let i = 0; i < 10; i++) {
      const [r, g, b] = ctx.getImageData(i * 64 + 32, 50, 1, 1).data;
      if (r! + g! + b! > 3 * 128) n |= 1 << i;
    }
    return n;
  });
}
