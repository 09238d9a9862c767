// What belongs to the account, not to one browser (issue 37, items 8, 9 and 10):
// - item 10: the header's credit balance follows the indexing charge of an upload, on whatever page
//   is open when indexing ends (it showed the balance from before the charge for over a minute);
// - item 8: the search page opens on the library last uploaded into, browsed or searched, also on
//   another device (a phone, 375 px with touch), and on the demo library only when there is nothing else;
// - item 9: a trim made on the desktop is there on the phone; trims made on the phone while offline
//   are sent when it is back online and merged with what another device did meanwhile.
// One account throughout; one browser (device) per test, each a fresh profile.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  API,
  libraryPath,
  parseMomentId,
  ROUTES,
  type FolderResponse,
  type Library,
  type Media,
  type MomentTrim,
  type MomentTrimEdit,
} from '../../src/contract';
import { makeCounterVideo } from '../fixtures/counterVideo';
import { apiCall, e2eSuite, SCREENSHOT_DIR, signIn, waitForPath } from './harness';

const { app, signedIn, openBrowser } = e2eSuite();

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 812 };
/** Upload and indexing of the 12 s counter video on a small, shared machine. */
const INDEXED_MS = 180_000;
/** How long the search screen may take to settle on a library (it reads the account's last use first): longer than expect.poll's 5 s default under CI's load. */
const LIBRARY_SETTLES = { timeout: 10_000 };

const account = { email: '', password: '' };
let mine: Library;
let holiday: Library;
let counter: Media;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-e2e-account-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // Images in view settled (a thumbnail asked for while offline may never be; the picture shows it as it is).
  await page
    .waitForFunction(
      () =>
        [...document.images].every((img) => {
          const r = img.getBoundingClientRect();
          return img.complete || r.bottom < 0 || r.top > window.innerHeight;
        }),
      null,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** The balance the header shows. */
const headerCredits = async (page: Page) => Number((await page.locator('.credits-box__amount').innerText()).replace(/[^0-9-]/g, ''));
const balance = async (page: Page) => (await apiCall<{ creditsLeft: number }>(page, 'GET', API.billingInfo)).creditsLeft;
const switcher = (page: Page) => page.getByRole('button', { name: /^Libraries: / });
/** The libraries the search page searches, as its address names them. */
const searchedLibs = (page: Page) => new URL(page.url()).searchParams.get('libs');

/** Another device of the same account, through the API: signs in and sends trim edits. */
async function otherDevice() {
  const call = async <T>(method: string, p: string, token: string | null, body?: unknown) => {
    const r = await fetch(`${app.url}${p}`, {
      method,
      headers: { accept: 'application/json', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await r.json()) as { data: T; token?: string };
    if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(json)}`);
    return json;
  };
  const { token } = await call('POST', API.login, null, { email: account.email, password: account.password });
  return {
    trim: (edits: MomentTrimEdit[]) => call<MomentTrim[]>('POST', API.meTrims, token!, { edits }),
  };
}

/** The counter video's moment cards on the search page (after searching `counter` in `libs`). */
async function counterCards(page: Page) {
  const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${counter._id}"]`);
  await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  return cards;
}
const chipOf = (card: Locator) => card.locator('.moment-card__chips .time-chip').first();

/** Opens a card's moment dialog (a tap on a phone), types a trim into its Start and End, and closes it. */
async function trim(page: Page, card: Locator, start: string, end: string, length: string, touch = false) {
  const frame = card.locator('.moment-card__frame');
  if (touch) await frame.tap();
  else await frame.click();
  const dialog = page.getByRole('dialog').first();
  const group = dialog.getByRole('group', { name: 'Trim' });
  await group.waitFor();
  const [from, to] = [group.getByRole('textbox', { name: 'Start' }), group.getByRole('textbox', { name: 'End' })];
  await from.fill(start);
  await from.press('Tab');
  await to.fill(end);
  await to.press('Tab');
  await group.getByText(`Length ${length}`).waitFor();
  return dialog;
}
async function closeDialog(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

describe('the account across pages and devices (issue 37)', () => {
  it(
    'item 10: the header balance follows the indexing charge of an upload, on the page open when indexing ends',
    { timeout: INDEXED_MS + 60_000 },
    async () => {
      const { page, email, password } = await signedIn('account', ROUTES.libraries, DESKTOP);
      Object.assign(account, { email, password });
      const libraries = await apiCall<Library[]>(page, 'GET', API.libraries);
      mine = libraries.find((l) => l.isDefault)!;
      holiday = await apiCall<Library>(page, 'POST', API.libraries, { name: 'Holiday clips', settings: { v1: {} } });

      await page.goto(`${app.url}${libraryPath(mine._id)}`);
      await page.locator('.credits-box__amount').waitFor();
      const before = await headerCredits(page);
      expect(before).toBe(await balance(page));
      const video = path.join(dir, 'counter.mp4');
      makeCounterVideo(video, { cutAt: 6 });
      await page.getByTestId('file-input').setInputFiles(video);

      // Off to the search page while it is indexed: the balance must follow there.
      await expect.poll(async () => (await apiCall<FolderResponse>(page, 'GET', API.folder(mine._id))).files.length).toBe(1);
      await page.getByRole('link', { name: 'Search', exact: true }).first().click();
      await waitForPath(page, ROUTES.search);
      const deadline = Date.now() + INDEXED_MS;
      for (;;) {
        const [m] = (await apiCall<FolderResponse>(page, 'GET', API.folder(mine._id))).files;
        if (m && ['failed', 'errored', 'invalid'].includes(m.status)) throw new Error(`${m.metadata.name}: ${m.error?.message}`);
        if (m?.status === 'completed') {
          counter = m;
          break;
        }
        if (Date.now() > deadline) throw new Error(`still indexing: ${m?.status}`);
        await page.waitForTimeout(1000);
      }
      const after = await balance(page);
      expect(after).toBeLessThan(before);
      // Within seconds of the charge (the first follow-up fetch comes 3 s after one that saw it coming).
      await expect.poll(() => headerCredits(page), { timeout: 8_000 }).toBe(after);
      await page.getByRole('button', { name: /^Credits/ }).click();
      await page.getByRole('menu', { name: 'Credits' }).waitFor();
      await shot(page, 'account-credits-after-indexing-1280');
      await page.keyboard.press('Escape');
      await page.setViewportSize(PHONE);
      await shot(page, 'account-credits-after-indexing-375');
    },
  );

  it('item 8: search opens on the library last uploaded into, then on the one last browsed (a new device: from the account)', async () => {
    expect(counter, 'the first test uploaded the video').toBeTruthy();
    const { page } = await openBrowser(DESKTOP);
    // A browser that never saw this account: the upload into the default library was the last use.
    await signIn(page, app.url, account.email, account.password, ROUTES.search);
    await waitForPath(page, ROUTES.search);
    await expect.poll(() => searchedLibs(page), LIBRARY_SETTLES).toBe(mine._id);
    expect(await switcher(page).getAttribute('aria-label')).toBe(`Libraries: ${mine.name}`);

    // Browsing another library (empty, so no fallback would choose it) makes it the one search opens on.
    await page.goto(`${app.url}${libraryPath(holiday._id)}`);
    await page.getByRole('heading', { name: holiday.name }).first().waitFor();
    await page.getByRole('link', { name: 'Search', exact: true }).first().click();
    await waitForPath(page, ROUTES.search);
    await expect.poll(() => searchedLibs(page), LIBRARY_SETTLES).toBe(holiday._id);
    expect(await switcher(page).getAttribute('aria-label')).toBe(`Libraries: ${holiday.name}`);
    await shot(page, 'account-search-opens-on-last-library-1280');
  });

  it('item 8: on a phone (375 px, touch) search opens on the library last browsed on the desktop, then on the one last searched', async () => {
    expect(counter, 'the first test uploaded the video').toBeTruthy();
    const { page } = await openBrowser(PHONE, { touch: true });
    await signIn(page, app.url, account.email, account.password, ROUTES.search);
    await waitForPath(page, ROUTES.search);
    await expect.poll(() => searchedLibs(page), LIBRARY_SETTLES).toBe(holiday._id);
    await shot(page, 'account-search-opens-on-last-library-375');

    // Picked in the switcher (by touch) and searched: the next visit opens there.
    await switcher(page).tap();
    await page.getByRole('button', { name: new RegExp(`^${mine.name}`) }).tap();
    await expect.poll(() => searchedLibs(page), LIBRARY_SETTLES).toBe(mine._id);
    await page.getByPlaceholder(/Ask me anything/).fill('counter');
    await counterCards(page);
    await page.goto(`${app.url}${ROUTES.libraries}`);
    await page.goto(`${app.url}${ROUTES.search}`);
    await expect.poll(() => searchedLibs(page), LIBRARY_SETTLES).toBe(mine._id);
    // And the account has it, for the next device.
    const me = await apiCall<{ settings: { lastLibraryIds?: string[] } }>(page, 'GET', API.me);
    expect(me.settings.lastLibraryIds).toEqual([mine._id]);
  });

  let firstId = '';
  let secondId = '';
  it('item 9: a trim made on the desktop is kept with the account', async () => {
    expect(counter, 'the first test uploaded the video').toBeTruthy();
    const { page } = await openBrowser(DESKTOP);
    await signIn(page, app.url, account.email, account.password, `${ROUTES.search}?libs=${mine._id}&text=counter`);
    const cards = await counterCards(page);
    const first = cards.nth(0);
    firstId = (await first.getAttribute('data-moment-id')) ?? '';
    secondId = (await cards.nth(1).getAttribute('data-moment-id')) ?? '';
    expect(firstId).toMatch(/^m_/);
    const dialog = await trim(page, first, '00:00:01', '00:00:03.5', '2.5s');
    await closeDialog(page, dialog);
    await expect.poll(() => chipOf(first).innerText()).toBe('00:00:01 – 00:00:03');
    // The account has it (not only this browser).
    await expect
      .poll(async () => (await apiCall<MomentTrim[]>(page, 'GET', API.meTrims)).map((t) => [t.momentId, t.newTimestamps]))
      .toEqual([[firstId, { startTime: 1, endTime: 3.5 }]]);
    await shot(page, 'account-trim-desktop-1280');
  });

  it('item 9: the phone shows it; trims made there offline are sent when back online and merged with another device’s', async () => {
    expect(firstId, 'the desktop trimmed a moment').toMatch(/^m_/);
    const { page, context } = await openBrowser(PHONE, { touch: true });
    await signIn(page, app.url, account.email, account.password, `${ROUTES.search}?libs=${mine._id}&text=counter`);
    const cards = await counterCards(page);
    const first = page.locator(`.moment-card[data-moment-id="${firstId}"]`);
    const second = page.locator(`.moment-card[data-moment-id="${secondId}"]`);
    expect(await cards.count()).toBeGreaterThanOrEqual(2);
    // The desktop's trim, on the phone.
    await expect.poll(() => chipOf(first).innerText()).toBe('00:00:01 – 00:00:03');
    await first.locator('img.moment-card__poster').waitFor();
    await shot(page, 'account-trim-phone-375');

    // Offline: the second moment is trimmed here; the edit shows at once and waits.
    await context.setOffline(true);
    const dialog = await trim(page, second, '00:00:07', '00:00:09', '2s', true);
    await closeDialog(page, dialog);
    await expect.poll(() => chipOf(second).innerText()).toBe('00:00:07 – 00:00:09');
    // Meanwhile another device trims the first moment again (a later edit than the desktop's).
    const tablet = await otherDevice();
    await tablet.trim([
      {
        momentId: firstId,
        originalTimestamps: { startTime: parseMomentId(firstId)!.start, endTime: parseMomentId(firstId)!.end },
        newTimestamps: { startTime: 2, endTime: 4 },
        editedAt: new Date().toISOString(),
      },
    ]);

    // Back online: the phone's edit goes up, and the merged trims come down (both moments).
    await context.setOffline(false);
    await expect
      .poll(
        async () => Object.fromEntries((await apiCall<MomentTrim[]>(page, 'GET', API.meTrims)).map((t) => [t.momentId, t.newTimestamps])),
        {
          timeout: 15_000,
        },
      )
      .toEqual({ [firstId]: { startTime: 2, endTime: 4 }, [secondId]: { startTime: 7, endTime: 9 } });
    await expect.poll(() => chipOf(first).innerText(), { timeout: 15_000 }).toBe('00:00:02 – 00:00:04');
    expect(await chipOf(second).innerText()).toBe('00:00:07 – 00:00:09');
    await shot(page, 'account-trim-merged-375');
  });
});
