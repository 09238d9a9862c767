// The newcomer's check against a running server (`npm start` in another terminal):
//   npm run smoke -- http://127.0.0.1:8080 ./data
// Generates a short video with speech (flite), a burnt-in caption and real photos, signs up (the
// verification link is read from DATA_DIR/mail, the embedded outbox), uploads it through the web app
// by a page drop, waits for indexing and finds it by what is said, by the caption and by what is
// seen. Prints each step; exits 1 on the first failure. Needs Debian's chromium, ffmpeg and flite.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API, ROUTES, type HealthInfo, type Media, type SearchResults } from '../../src/contract';
import { DARKNET_PHOTOS, FOX_PHRASE } from '../fixtures/makeMedia';
import { openBrowser, signIn, uniqueEmail, waitForPath } from './harness';

const [url = 'http://127.0.0.1:8080', dataDir = './data'] = process.argv.slice(2);
const CAPTION = 'HARBOUR FESTIVAL TONIGHT';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const step = (msg: string) => console.log(`- ${msg}`);

async function api<T>(method: string, p: string, body?: unknown, token?: string): Promise<T> {
  const r = await fetch(`${url}${p}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json()) as { data: T; error?: { message: string } };
  if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${json.error?.message}`);
  return json.data;
}

/** 12 s at 1280x720: dog.jpg, then horses.jpg under a caption, then eagle.jpg; the fox sentence from 1 s. */
function makeVideo(dir: string): string {
  const out = path.join(dir, 'newcomer-check.mp4');
  const speech = path.join(dir, 'speech.wav');
  execFileSync('flite', ['-voice', 'slt', '-t', FOX_PHRASE, '-o', speech]);
  const photo = (name: string) => ['-loop', '1', '-t', '4', '-i', path.join(DARKNET_PHOTOS, name)];
  const fit = 'scale=1280:720:force_original_aspect_ratio=increase,crop=1280:720,setsar=1,fps=25,format=yuv420p';
  execFileSync('ffmpeg', [
    ...['-v', 'error', '-y'],
    ...photo('dog.jpg'),
    ...photo('horses.jpg'),
    ...photo('eagle.jpg'),
    ...['-i', speech],
    '-filter_complex',
    `[0]${fit}[a];[1]${fit},drawbox=y=ih-150:h=110:w=iw:x=0:color=black@0.55:t=fill,` +
      `drawtext=fontfile=${FONT}:text='${CAPTION}':fontcolor=white:fontsize=56:x=(w-text_w)/2:y=h-125[b];` +
      `[2]${fit}[c];[a][b][c]concat=n=3:v=1:a=0[v];[3]adelay=1000|1000,apad=whole_dur=12[s]`,
    ...['-map', '[v]', '-map', '[s]', '-c:v', 'libx264', '-preset', 'veryfast', '-c:a', 'aac', '-t', '12', out],
  ]);
  return out;
}

async function main() {
  const health = await api<HealthInfo>('GET', API.health);
  const off = health.off.filter((f) => !f.optional);
  step(
    `server at ${url}: ${health.capabilities.join(', ')}${off.length ? `; OFF: ${off.map((f) => `${f.label} (${f.reason})`).join('; ')}` : ''}`,
  );
  if (off.length) throw new Error('some indexing features are off');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-smoke-'));
  const video = makeVideo(dir);
  step(`made ${path.basename(video)} (${fs.statSync(video).size} bytes): dog, horses under '${CAPTION}', eagle; '${FOX_PHRASE}' spoken`);

  const email = uniqueEmail('newcomer');
  const password = 'newcomer-password-1';
  const started = Date.now();
  await api('POST', API.register, { email, password });
  const mailDir = path.resolve(dataDir, 'mail');
  let code: string | null = null;
  for (let i = 0; i < 50 && !code; i++) {
    for (const f of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      const text = fs.readFileSync(path.join(mailDir, f), 'utf8');
      if (text.includes(email)) code = /confirm-email\?code=([\w.-]+)/.exec(text.replace(/=\r?\n/g, ''))?.[1] ?? null;
    }
    if (!code) await new Promise((r) => setTimeout(r, 200));
  }
  if (!code) throw new Error(`no verification mail for ${email} in ${mailDir}`);
  await api('POST', API.verifyEmail, { token: code });
  step(`signed up and verified ${email} from the outbox`);

  const browser = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = browser;
    await signIn(page, url, email, password, ROUTES.libraries);
    await page.locator('.library-card').filter({ hasText: 'My Library' }).getByRole('link').first().click();
    await waitForPath(page, /^\/library\/[0-9a-f-]{36}$/);
    const libraryId = new URL(page.url()).pathname.split('/')[2]!;
    // The library screen is its own chunk: drop only once it is there to take the files.
    await page.getByRole('button', { name: 'Add videos' }).first().waitFor();
    const token = (await page.evaluate(() => localStorage.getItem('clipseek.token')))!;
    const bytes = fs.readFileSync(video).toString('base64');
    await page.evaluate(
      ({ b64, name }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], name, { type: 'video/mp4' }));
        for (const type of ['dragenter', 'dragover', 'drop'])
          document.body.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
      },
      { b64: bytes, name: path.basename(video) },
    );
    step('dropped the video on the library page');
    let media: Media | undefined;
    for (let i = 0; i < 600; i++) {
      if (i === 60 && !media) throw new Error('the dropped video did not reach the library within 60 s');
      const list = await api<Media[]>('GET', `${API.mediaRange(libraryId)}?start=0&end=20`, undefined, token);
      media = list.find((m) => m.metadata.filename === path.basename(video));
      if (media && ['completed', 'errored', 'failed', 'invalid'].includes(media.status)) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    if (media?.status !== 'completed') throw new Error(`indexing ended as ${media?.status}: ${JSON.stringify(media?.error)}`);
    step(
      `indexed in ${((Date.now() - started) / 1000).toFixed(0)} s from sign-up; indexed without: ${media.missingFeatures.join('; ') || 'nothing'}`,
    );

    const search = async (kind: 'visual' | 'transcript' | 'unified', text: string, from: number, to: number) => {
      const p = { visual: API.searchVisual(libraryId), transcript: API.searchTranscript(libraryId), unified: API.searchUnified(libraryId) }[
        kind
      ];
      const r = await api<SearchResults>('POST', `${p}?limit=10${kind === 'transcript' ? '&threshold=0.0' : ''}`, { text }, token);
      const mine = r.results.filter((m) => m.mediaId === media!._id);
      const hit = mine.findIndex((m) => m.startTime < to && m.endTime > from);
      const shown = mine.map((m) => `${m.startTime.toFixed(1)}-${m.endTime.toFixed(1)}`).join(', ');
      if (hit < 0) throw new Error(`${kind} '${text}': no moment within ${from}-${to} s (got ${shown || 'none'})`);
      step(`${kind} '${text}': moment ${mine[hit]!.startTime.toFixed(1)}-${mine[hit]!.endTime.toFixed(1)} s at rank ${hit + 1}`);
    };
    await search('transcript', 'quick brown fox', 0, 12);
    await search('visual', 'harbour festival', 4, 8);
    await search('unified', 'festival tonight', 4, 8);
    await search('visual', 'dog', 0, 4);
    await search('visual', 'bird', 8, 12);
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log('newcomer check passed');
}

main().catch((err: unknown) => {
  console.error(`newcomer check FAILED: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
