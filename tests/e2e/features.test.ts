// A server missing part of its indexer (here the object detector's files) says so where people
// watch indexing, and each media indexed without it says what it lacks.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { API, INDEX_FEATURES, MSG_MEDIA, ROUTES } from '../../src/contract';
import { MODEL_FILES } from '../../src/server/adapters/models/fetchModels';
import { partialModelsDir, removeDir, tempDir } from '../fixtures/modelsDir';
import { e2eSuite, SCREENSHOT_DIR, waitForPath } from './harness';

const modelsDir = partialModelsDir(MODEL_FILES.filter((f) => !f.optional && !f.features.includes('objects')).map((f) => f.path));
const { app, signedIn } = e2eSuite({ MODELS_DIR: modelsDir });
const mediaDir = tempDir('e2e-features');
afterAll(() => {
  removeDir(modelsDir);
  removeDir(mediaDir);
});

const OFF_REASON = 'model files yolox_nano.onnx, coco80_labels.txt are not installed on this server';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), animations: 'disabled' });
}

describe('features that are off on this server', () => {
  it('are listed in the Processing modal and on each media indexed without them', async () => {
    const video = path.join(mediaDir, 'no-objects.mp4');
    execFileSync('/usr/bin/ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc2=size=320x240:rate=25',
      '-t',
      '2',
      '-pix_fmt',
      'yuv420p',
      '-y',
      video,
    ]);
    const health = (await (await fetch(`${app.url}${API.health}`, { headers: { accept: 'application/json' } })).json()) as {
      data: { off: Array<{ feature: string }> };
    };
    expect(health.data.off.map((f) => f.feature)).toContain('objects');

    const { page } = await signedIn('features', ROUTES.libraries, { width: 1280, height: 800 });
    await page.locator('.library-card').filter({ hasText: 'My Library' }).getByRole('link').first().click();
    await waitForPath(page, /^\/library\/[0-9a-f-]{36}$/);
    const libraryId = new URL(page.url()).pathname.split('/')[2]!;
    await page.locator('input[type=file]').first().setInputFiles(video);

    await page.getByRole('button', { name: /processing/ }).click();
    const processing = page.getByRole('dialog', { name: MSG_MEDIA.processingTitle });
    const notice = processing.getByRole('alert').filter({ hasText: 'Some features are off on this server' });
    await notice.getByText(INDEX_FEATURES.objects.label).waitFor();
    expect(await notice.textContent()).toContain(OFF_REASON);
    // Only the missing model is named: the optional CLIP pair is not a fault.
    expect(await notice.textContent()).not.toContain(INDEX_FEATURES.clip.label);
    await shot(page, 'features-off-processing-1280');
    await page.setViewportSize({ width: 375, height: 740 });
    await shot(page, 'features-off-processing-375');
    await processing.getByRole('button', { name: 'Close' }).last().click();

    // Indexing completes without the detector; the media says what it was indexed without.
    await page.locator('[data-status="completed"]').first().waitFor({ timeout: 90_000 });
    const ids = await page.evaluate(
      async (p) => {
        const r = await fetch(p, {
          headers: { accept: 'application/json', authorization: `Bearer ${localStorage.getItem('clipseek.token')}` },
        });
        return ((await r.json()) as { data: Array<{ _id: string }> }).data.map((m) => m._id);
      },
      `${API.mediaRange(libraryId)}?start=0&end=1`,
    );
    await page.goto(`${app.url}/library/${libraryId}/media/${ids[0]}`);
    const modal = page.getByRole('dialog', { name: 'no-objects' });
    await modal.getByText('Indexed without').waitFor();
    expect(await modal.textContent()).toContain(`${INDEX_FEATURES.objects.label}: ${OFF_REASON}`);
    await shot(page, 'features-off-media-375');
  }, 150_000);
});
