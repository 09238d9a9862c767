import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTimecode } from '../../src/app/media/momentFormat';
import { MSG_MERGE, ROUTES } from '../../src/contract';
import { uploadCounterVideo } from '../fixtures/counterVideo';
import { createVerifiedUser, e2eSuite, SCREENSHOT_DIR, signIn, uniqueEmail } from './harness';

/**
 * Playing the merge editor re-renders only its clock (issue 38): the editor publishes its state on
 * every frame of playback, and the dialog reads it through selectors, so the dialog's body (player,
 * controls, moment list, footer) is not rendered again per frame.
 *
 * Renders are counted through React's DevTools hook (the one React DevTools uses; React calls it in
 * production builds too), installed before the app loads: after each commit, an element whose
 * component rendered again has a new props object (`__reactProps$…`). Nothing in the app is added
 * for the test.
 */
const { app, openBrowser } = e2eSuite();

function countRenders() {
  const counts = { commits: 0, body: 0, clock: 0 };
  const seen = new WeakMap<Element, unknown>();
  const rendered = (selector: string) => {
    const el = document.querySelector(selector);
    const key = el && Object.keys(el).find((k) => k.startsWith('__reactProps$'));
    if (!el || !key) return false;
    const props = (el as unknown as Record<string, unknown>)[key];
    if (seen.get(el) === props) return false;
    seen.set(el, props);
    return true;
  };
  const renderers = new Map<number, unknown>();
  Object.assign(window, {
    __renderCounts: counts,
    __REACT_DEVTOOLS_GLOBAL_HOOK__: {
      supportsFiber: true,
      isDisabled: false,
      renderers,
      inject: (renderer: unknown) => (renderers.set(renderers.size + 1, renderer), renderers.size),
      checkDCE: () => undefined,
      onScheduleFiberRoot: () => undefined,
      onCommitFiberUnmount: () => undefined,
      onPostCommitFiberRoot: () => undefined,
      onCommitFiberRoot: () => {
        counts.commits++;
        if (rendered('[data-testid="merge-dialog"]')) counts.body++;
        if (rendered('[data-testid="merge-time"]')) counts.clock++;
      },
    },
  });
}

type Counts = { commits: number; body: number; clock: number };

describe('merge editor renders (issue 38)', () => {
  it('a frame of playback re-renders the clock, not the dialog', { timeout: 240_000 }, async () => {
    const email = uniqueEmail('merge-renders');
    const password = 'merge renders password';
    await createVerifiedUser(app, email, password);
    const { library, media } = await uploadCounterVideo(app.url, email, password, { cutAt: 6 });
    expect(media.status).toBe('completed');

    const { page, context } = await openBrowser({ width: 1280, height: 800 });
    await context.addInitScript(countRenders);
    await signIn(page, app.url, email, password, `${ROUTES.search}?libs=${library._id}`);
    await page.waitForURL((u) => u.pathname === ROUTES.search);
    await page.getByPlaceholder(/Ask me anything/).fill('counter');
    const cards = page.locator(`.moment-card:not(.moment-card--skeleton)[data-media-id="${media._id}"]`);
    // Moments here are about 1.3 s each: up to six clips make a sequence that plays long enough for
    // 20 frames even where headless Chromium presents only a few frames a second.
    await expect.poll(() => cards.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(3);
    const picked = (await cards.all()).slice(0, 6);
    for (const card of picked) await card.getByRole('checkbox').check();
    await page.getByRole('toolbar', { name: 'Selection' }).getByRole('button', { name: MSG_MERGE.merge }).click();
    const dialog = page.getByRole('dialog', { name: MSG_MERGE.dialogTitle });
    await dialog.getByTestId('sequence-timeline').locator('canvas').waitFor({ timeout: 30_000 });
    const play = dialog.getByRole('button', { name: 'Play', exact: true });
    await expect.poll(() => play.isEnabled(), { timeout: 30_000 }).toBe(true);

    const counts = () => page.evaluate(() => ({ ...(window as unknown as { __renderCounts: Counts }).__renderCounts }));
    const clockSeconds = async () => parseTimecode((await dialog.getByTestId('merge-time').innerText()).split(' / ')[0]!) ?? 0;
    const before = await counts();
    expect(before.body, 'the hook saw the dialog render').toBeGreaterThan(0);
    await play.click();
    // Playback until the clock has shown 20 new frames and a whole second (the clock shows whole
    // seconds: 20 frames at the video's 25 fps are 0.8 s, so a quick machine reaches them first).
    await expect.poll(async () => (await counts()).clock - before.clock, { timeout: 30_000 }).toBeGreaterThanOrEqual(20);
    await expect.poll(clockSeconds, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const after = await counts();
    const played = await clockSeconds();
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'merge-renders-1280.png') });

    const body = after.body - before.body;
    const figures = JSON.stringify({ clips: picked.length, before, after, played });
    console.log('merge editor renders while playing', figures);
    // The playhead really moved on ...
    expect(played, figures).toBeGreaterThanOrEqual(1);
    // ... and the dialog's body rendered a handful of times at most (Play becoming Pause), not per frame
    // nor at each clip boundary (the moment list's current clip is the list's own).
    expect(body, figures).toBeLessThan(10);
  });
});
