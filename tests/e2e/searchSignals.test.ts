import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  API,
  MSG_SEARCH,
  MSG_SEARCH_UI,
  parseMomentId,
  ROUTES,
  type FolderResponse,
  type Library,
  type TranscriptFile,
  type TranscriptLine,
} from '../../src/contract';
import { uploadIndexed } from '../fixtures/counterVideo';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { client } from '../integration/support/harness';
import {
  createVerifiedUser,
  e2eSuite,
  SCREENSHOT_DIR,
  signIn,
  uniqueEmail,
  WITH_DEMO,
  type BrowserOptions,
  type Viewport,
} from './harness';

/**
 * Issue 37, items 11-13: search offers what is seen, what is said and both (both by default where a
 * library has speech), every result says how confident it is, find similar returns only what is
 * meaningfully alike, and spoken words are found however they are written.
 */

const { app, openBrowser } = e2eSuite(WITH_DEMO);

const PHONE: Viewport = { width: 375, height: 812 };
const DESKTOP: Viewport = { width: 1280, height: 800 };

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.waitForFunction(() => [...document.images].every((img) => img.complete), null, { timeout: 10_000 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** A new account whose demo library (the two narrated samples) is indexed; its libraries and token. */
async function accountWithDemo(tag: string) {
  const email = uniqueEmail(tag);
  const password = `${tag} password`;
  await createVerifiedUser(app, email, password);
  const api = client(app.url);
  const token = (await api('POST', API.login, { body: { email, password } })).body.token!;
  const libraries = async () => (await api<Library[]>('GET', API.libraries, { token })).body.data!;
  await expect
    .poll(
      async () => {
        const demo = (await libraries()).find((l) => l.isDemo)!;
        return demo.stats.count > 0 && demo.stats.breakdown.completed.count === demo.stats.count;
      },
      { timeout: 120_000, interval: 500, message: 'the demo library is indexed' },
    )
    .toBe(true);
  const all = await libraries();
  return { email, password, token, demo: all.find((l) => l.isDemo)!, mine: all.find((l) => l.isDefault)! };
}

async function signedInAt(account: { email: string; password: string }, url: string, viewport: Viewport, options?: BrowserOptions) {
  const { page } = await openBrowser(viewport, options);
  await signIn(page, app.url, account.email, account.password, url);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  return page;
}

const cards = (page: Page) => page.locator('.moment-card:not(.moment-card--skeleton)');
const resultType = (page: Page, name: string) =>
  page.getByRole('radiogroup', { name: 'Result type' }).getByRole('radio', { name, exact: true });
const searchCall = (page: Page, path: string) => page.waitForRequest((r) => new URL(r.url()).pathname === path && r.method() === 'POST');

describe('search signals (issue 37, items 11-13)', () => {
  it(
    'offers Visual, Conversational and Both on a phone, Both by default where the library has speech (item 11)',
    { timeout: 180_000 },
    async () => {
      const account = await accountWithDemo('modes');
      expect(account.demo.stats.withSpeech, 'the narrated demo samples have speech').toBeGreaterThan(0);
      const page = await signedInAt(account, ROUTES.search, PHONE, { touch: true });
      // The demo library (narrated) is searched: all three offered, Both chosen.
      for (const name of ['Visual', 'Conversational', 'Both']) await resultType(page, name).waitFor();
      await expect.poll(() => resultType(page, 'Both').getAttribute('aria-checked')).toBe('true');
      const box = page.getByPlaceholder(MSG_SEARCH.placeholder);
      let call = searchCall(page, API.searchUnified(account.demo._id));
      await box.fill('a dog');
      await call;
      await cards(page).first().waitFor({ timeout: 30_000 });
      // Both found what is said with what is seen: a card carries the narration's words.
      await expect.poll(() => cards(page).filter({ hasText: /\w/ }).locator('.moment-card__caption').count()).toBeGreaterThan(0);
      await shot(page, 'search-modes-both-375');
      // Tapping Visual searches what is seen only, says so, and the address keeps the choice.
      call = searchCall(page, API.searchVisual(account.demo._id));
      await resultType(page, 'Visual').tap();
      await page
        .locator('.toast')
        .filter({ hasText: MSG_SEARCH_UI.nowViewing('visual') })
        .waitFor();
      await call;
      await page.waitForURL((u) => u.searchParams.get('search') === 'visual');
      await expect.poll(() => resultType(page, 'Visual').getAttribute('aria-checked')).toBe('true');
      // A library with no speech (the account's own, empty) starts on Visual, with Both still offered.
      await page.goto(`${app.url}${ROUTES.search}?libs=${account.mine._id}&text=dog`);
      await resultType(page, 'Both').waitFor();
      await expect.poll(() => resultType(page, 'Visual').getAttribute('aria-checked')).toBe('true');
      expect(await resultType(page, 'Both').getAttribute('aria-checked')).toBe('false');
    },
  );

  it('says how confident every result is, and finds similar moments only when they are alike (item 12)', { timeout: 180_000 }, async () => {
    const account = await accountWithDemo('signals');
    const { files } = (await client(app.url)<FolderResponse>('GET', API.folder(account.demo._id), { token: account.token })).body.data!;
    const kites = files.find((f) => f.metadata.name === 'people-and-kites')!;
    expect(kites, JSON.stringify(files.map((f) => f.metadata.name))).toBeTruthy();
    const q = new URLSearchParams({ libs: account.demo._id, text: 'a kite', search: 'visual' });
    const page = await signedInAt(account, `${ROUTES.search}?${q}`, DESKTOP);
    await cards(page).first().waitFor({ timeout: 30_000 });
    // Every card says its confidence, as the API said it.
    const shown = await cards(page).evaluateAll((els) =>
      els.map((e) => ({ id: e.getAttribute('data-moment-id'), chip: e.querySelector('.confidence-chip')?.textContent ?? null })),
    );
    expect(shown.length).toBeGreaterThan(0);
    for (const c of shown) expect(Object.values(MSG_SEARCH.confidence), JSON.stringify(c)).toContain(c.chip);
    await shot(page, 'search-confidence-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'search-confidence-375');
    await page.setViewportSize(DESKTOP);
    // The kites on the beach (people-and-kites from 7 s): nothing else in the library looks like them
    // (people on a street, a dog, horses, an eagle, a giraffe), so find similar finds nothing, and says so.
    const kiteCard = page
      .locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${kites._id}"]`)
      .filter({ hasText: '00:00:07' })
      .first();
    await kiteCard.waitFor();
    const kiteMoment = (await kiteCard.getAttribute('data-moment-id'))!;
    expect(parseMomentId(kiteMoment)!.start).toBeCloseTo(7, 0);
    await kiteCard.hover();
    await kiteCard.getByRole('button', { name: MSG_SEARCH_UI.similarMoments }).click();
    await page.waitForURL((u) => u.searchParams.get('moment') === kiteMoment);
    await page.getByText(MSG_SEARCH.noSimilarMoments, { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText(MSG_SEARCH.noSimilarMomentsDetail).waitFor();
    expect(await cards(page).count()).toBe(0);
    await shot(page, 'search-similar-none-1280');
    await page.setViewportSize(PHONE);
    await shot(page, 'search-similar-none-375');
  });

  it('finds a corrected line by its words however they are written (item 13)', { timeout: 240_000 }, async () => {
    const email = uniqueEmail('spoken');
    const password = 'spoken password';
    await createVerifiedUser(app, email, password);
    const { library, media, token } = await uploadIndexed(app.url, email, password, 'interview.mp4', (file) =>
      makeSpeechVideo(file, [FOX_PHRASE, 'please call stella and ask her to bring these things']),
    );
    expect(media.status).toBe('completed');
    const api = client(app.url);
    const file = (await api<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${library._id}&mediaId=${media._id}`, { token })).body
      .data!;
    const line: TranscriptLine = file.segments.find((s) => s.text.trim())!;
    // The owner writes the line as people write it; search is then typed as it was said.
    const fixed = await api('PATCH', API.transcriptSegment(library._id, media._id, line.id), {
      token,
      body: { text: 'Mr. John Dashwood owes 25 pounds' },
    });
    expect(fixed.status).toBe(200);
    const q = new URLSearchParams({ libs: library._id, search: 'transcript', text: 'mister john dashwood twenty five pounds' });
    const page = await signedInAt({ email, password }, `${ROUTES.search}?${q}`, PHONE, { touch: true });
    const card = cards(page).filter({ hasText: 'Mr. John Dashwood owes 25 pounds' }).first();
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('.confidence-chip').getAttribute('data-confidence')).toBe('high');
    expect(await cards(page).first().getAttribute('data-moment-id')).toBe(await card.getAttribute('data-moment-id'));
    await shot(page, 'search-spoken-forms-375');
  });
});
