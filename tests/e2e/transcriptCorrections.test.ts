import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { API, MSG_TRANSCRIPT, ROUTES, type TranscriptFile, type TranscriptLine } from '../../src/contract';
import { uploadIndexed } from '../fixtures/counterVideo';
import { FOX_PHRASE, makeSpeechVideo } from '../fixtures/makeMedia';
import { client } from '../integration/support/harness';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail, type Viewport } from './harness';

/**
 * Correcting a transcript in the moment dialog (issue 19), from the keyboard as in Descript: a
 * video whose speech pocketsphinx transcribes is searched by a word it heard, the line saying it is
 * selected, corrected in place and saved; a new search then finds the corrected words.
 */

const { app, openBrowser } = e2eSuite();

const CORRECTED = 'Zanzibar quartets rehearse marmalade';

/** A new account with a speech video indexed; its transcript, and a heard word of one line that no other line says. */
async function speechAccount(tag: string) {
  const email = uniqueEmail(tag);
  const password = `${tag} password`;
  await createVerifiedUser(app, email, password);
  const { library, media, token } = await uploadIndexed(app.url, email, password, 'interview.mp4', (file) =>
    makeSpeechVideo(file, [FOX_PHRASE, 'please call stella and ask her to bring these things']),
  );
  expect(media.status).toBe('completed');
  const file = (
    await client(app.url)<TranscriptFile>('GET', `${API.transcriptJson}?libraryId=${library._id}&mediaId=${media._id}`, { token })
  ).body.data!;
  const words = (s: string) => s.toLowerCase().match(/[a-z']+/g) ?? [];
  let pick: { line: TranscriptLine; word: string } | null = null;
  for (const line of file.segments) {
    const elsewhere = new Set(file.segments.filter((o) => o !== line).flatMap((o) => words(o.text)));
    const word = words(line.text).find((w) => w.length >= 5 && !elsewhere.has(w));
    if (word) {
      pick = { line, word };
      break;
    }
  }
  expect(pick, `a line with a word of its own in ${JSON.stringify(file.segments)}`).toBeTruthy();
  return { email, password, library, media, segments: file.segments, ...pick! };
}

type Account = Awaited<ReturnType<typeof speechAccount>>;

/** Signs in on a conversational search for `text` in the account's library; the page. */
async function searchFor(account: Account, text: string, viewport: Viewport) {
  const { page } = await openBrowser(viewport);
  const q = new URLSearchParams({ libs: account.library._id, search: 'transcript', text });
  await signIn(page, app.url, account.email, account.password, `${ROUTES.search}?${q}`);
  await page.waitForURL((u) => u.pathname === ROUTES.search);
  return page;
}

const cardSaying = (page: Page, account: Account, text: RegExp) =>
  page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${account.media._id}"]`).filter({ hasText: text }).first();

/** What has the focus: a transcript line (its text), the line editor, or something else. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (el?.matches('.moment-lines__seek')) return `line:${el.querySelector('.moment-lines__text')?.textContent ?? ''}`;
    if (el?.matches('textarea.transcript-edit__input')) return 'editor';
    return `${el?.tagName ?? 'none'}.${el?.className ?? ''}`;
  });

/** Presses Tab until a transcript line has the focus (keyboard only); its text. */
async function tabToTranscript(page: Page) {
  for (let i = 0; i < 60; i++) {
    const f = await focused(page);
    if (f.startsWith('line:')) return f.slice('line:'.length);
    await page.keyboard.press('Tab');
  }
  throw new Error(`no transcript line took the focus; last: ${await focused(page)}`);
}

/** Moves with the arrows to the line saying `text`. */
async function arrowTo(page: Page, text: string, lines: TranscriptLine[]) {
  const first = await tabToTranscript(page);
  const now = lines.findIndex((l) => l.text === first);
  const to = lines.findIndex((l) => l.text === text);
  expect(now).toBeGreaterThanOrEqual(0);
  for (let i = 0; i < Math.abs(to - now); i++) await page.keyboard.press(to > now ? 'ArrowDown' : 'ArrowUp');
  expect(await focused(page)).toBe(`line:${text}`);
}

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

/** Opens the dialog of `card` from the keyboard (the card's picture is a button). */
async function openFromKeyboard(page: Page, card: Locator) {
  await card.locator('.moment-card__frame').focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'Transcript', checked: true }).waitFor();
  await dialog.getByRole('list', { name: 'Transcript' }).locator('.moment-lines__item').first().waitFor();
  return dialog;
}

describe('transcript corrections (issue 19)', () => {
  it('corrects a line from the keyboard in the moment dialog; search then finds the corrected words', { timeout: 360_000 }, async () => {
    const account = await speechAccount('correct');
    const { line, word, segments } = account;
    const page = await searchFor(account, word, { width: 1280, height: 900 });
    const card = cardSaying(page, account, new RegExp(word, 'i'));
    await card.waitFor({ timeout: 60_000 });
    const dialog = await openFromKeyboard(page, card);
    const list = dialog.getByRole('list', { name: 'Transcript' });
    const row = list.locator(`[data-segment-id="${line.id}"]`);

    // Select the line: Tab into the transcript (through the player, the timeline and the trim
    // fields, which passing through leaves as they are), then the arrows.
    await arrowTo(page, line.text, segments);
    await dialog.getByText(MSG_TRANSCRIPT.editHint).waitFor();
    expect(await dialog.getByTestId('moment-trimmed').count()).toBe(0);

    // Enter edits it in place; Escape cancels (and the dialog stays open).
    await page.keyboard.press('Enter');
    expect(await focused(page)).toBe('editor');
    const editor = row.getByRole('textbox');
    expect(await editor.inputValue()).toBe(line.text);
    await page.keyboard.type(' nonsense');
    await page.keyboard.press('Escape');
    await editor.waitFor({ state: 'detached' });
    expect(await page.getByRole('dialog').count()).toBe(1);
    expect(await focused(page)).toBe(`line:${line.text}`);

    // An empty line is refused, saying why; the editor stays open.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await row.getByRole('alert').filter({ hasText: MSG_TRANSCRIPT.empty }).waitFor();
    expect(await editor.getAttribute('aria-invalid')).toBe('true');
    expect(await focused(page)).toBe('editor');

    // Type the correction; Enter saves it.
    await page.keyboard.type(CORRECTED);
    await dialog.getByText(MSG_TRANSCRIPT.editingHint).waitFor();
    await shot(page, 'transcript-edit-1280');
    await page.keyboard.press('Enter');
    await row.getByTestId('line-saved').waitFor();
    await row.locator('.moment-lines__text', { hasText: CORRECTED }).waitFor();
    expect(await focused(page)).toBe(`line:${CORRECTED}`);
    // The corrected line says what was heard, and offers the original back and its history.
    await row.getByText(`Heard as: ${line.text}`).waitFor();
    await row.getByRole('button', { name: MSG_TRANSCRIPT.restoreOriginal }).waitFor();
    await shot(page, 'transcript-saved-1280');

    // Tab from the editor saves and goes on to edit the next line (Shift+Tab the previous one).
    const i = segments.findIndex((s) => s.id === line.id);
    const neighbour = segments[i + 1] ?? segments[i - 1];
    if (neighbour) {
      await page.keyboard.press('Enter');
      await page.keyboard.press(segments[i + 1] ? 'Tab' : 'Shift+Tab');
      const next = list.locator(`[data-segment-id="${neighbour.id}"]`).getByRole('textbox');
      await next.waitFor();
      expect(await focused(page)).toBe('editor');
      expect(await next.inputValue()).toBe(neighbour.text);
      await page.keyboard.press('Escape');
      await next.waitFor({ state: 'detached' });
      // nothing changed on either line: no save was sent
      expect(await row.locator('.transcript-badge--saving').count()).toBe(0);
    }

    // Its history, from the keyboard: Tab to the line's History, Enter.
    await row.locator('.moment-lines__seek').focus();
    await row.getByRole('button', { name: /^History/ }).waitFor();
    for (let n = 0; n < 4 && !(await row.getByRole('button', { name: /^History/ }).evaluate((b) => b === document.activeElement)); n++)
      await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    const history = row.getByRole('list', { name: 'Changes of this line' });
    await history.getByText(CORRECTED).waitFor();
    expect(await history.innerText()).toContain(account.email);

    // Close the dialog (Escape from the line) and search for the corrected words: found, as said now.
    await row.locator('.moment-lines__seek').focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    // The result it was opened from says the corrected words already.
    await page.locator(`.moment-card[data-media-id="${account.media._id}"]`).filter({ hasText: CORRECTED }).waitFor();
    const box = page.getByPlaceholder(/Ask me anything/);
    await box.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('zanzibar marmalade');
    const corrected = cardSaying(page, account, /Zanzibar quartets/);
    await corrected.waitFor({ timeout: 30_000 });
    await shot(page, 'transcript-search-corrected-1280');
    // and the word it was heard as finds that line no more
    await box.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type(word);
    await page.waitForURL((u) => u.searchParams.get('text') === word);
    await page.getByText('No moments found').waitFor({ timeout: 30_000 });
    await shot(page, 'transcript-search-after-1280');
  });

  it('restores the original from the keyboard, and edits at 375 px', { timeout: 360_000 }, async () => {
    const account = await speechAccount('restore');
    const { line, word, segments } = account;
    const page = await searchFor(account, word, { width: 375, height: 812 });
    const card = cardSaying(page, account, new RegExp(word, 'i'));
    await card.waitFor({ timeout: 60_000 });
    const dialog = await openFromKeyboard(page, card);
    const row = dialog.getByRole('list', { name: 'Transcript' }).locator(`[data-segment-id="${line.id}"]`);
    await arrowTo(page, line.text, segments);

    // F2 edits too; the editor fits the phone's width.
    await page.keyboard.press('F2');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(CORRECTED);
    const editor = row.getByRole('textbox');
    await editor.scrollIntoViewIfNeeded();
    const b = (await editor.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375);
    for (const name of ['Save', 'Cancel']) {
      const button = (await row.getByRole('button', { name, exact: true }).boundingBox())!;
      expect(button.x + button.width, name).toBeLessThanOrEqual(375);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await shot(page, 'transcript-edit-375');
    // (a touch screen saves with the button)
    await row.getByRole('button', { name: 'Save', exact: true }).click();
    await row.locator('.moment-lines__text', { hasText: CORRECTED }).waitFor();

    // Restore original: Tab from the line to the button, Enter.
    await row.locator('.moment-lines__seek').focus();
    const restore = row.getByRole('button', { name: MSG_TRANSCRIPT.restoreOriginal });
    for (let n = 0; n < 4 && !(await restore.evaluate((el) => el === document.activeElement)); n++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await row.getByText(MSG_TRANSCRIPT.restored).waitFor();
    await row.locator('.moment-lines__text', { hasText: line.text }).waitFor();
    expect(await row.getByText('Heard as:').count()).toBe(0);

    // A reload shows what the server kept: the original, and two changes in its history.
    await page.reload();
    // (the dialog of a link opens before the search's results say the moment has words: on the visual summary)
    await page.getByRole('dialog').getByRole('radio', { name: 'Transcript' }).click();
    const again = page.getByRole('dialog').getByRole('list', { name: 'Transcript' }).locator(`[data-segment-id="${line.id}"]`);
    await again.locator('.moment-lines__text', { hasText: line.text }).waitFor({ timeout: 30_000 });
    await again.locator('.moment-lines__seek').click();
    await again.getByRole('button', { name: 'History (2)' }).waitFor();
  });
});
