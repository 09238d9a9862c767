// The Debian packages `npm start` and `npm test` need, installed through apt-get when this is a
// Debian machine and we are root; otherwise one line naming what to install.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** What the server itself runs: [a binary or a path it installs, its Debian package, what it is for]. */
export const SERVER_PACKAGES = [
  ['ffmpeg', 'ffmpeg', 'decoding, previews and thumbnails'],
  ['ffprobe', 'ffmpeg', 'reading media metadata'],
  ['pocketsphinx_continuous', 'pocketsphinx', 'speech to text'],
  ['/usr/share/pocketsphinx/model/en-us', 'pocketsphinx-en-us', 'the English speech model'],
  ['yt-dlp', 'yt-dlp', 'importing videos from links'],
];

/** What the tests add: the browser, a real PostgreSQL, speech synthesis, photos and fonts for generated media. */
export const TEST_PACKAGES = [
  ...SERVER_PACKAGES,
  ['/usr/bin/chromium', 'chromium', 'browser tests'],
  ['/usr/lib/postgresql', 'postgresql', 'integration tests on PostgreSQL'],
  ['flite', 'flite', 'test speech'],
  ['espeak-ng', 'espeak-ng', 'test speech'],
  ['/usr/share/darknet/data/dog.jpg', 'darknet', 'test photos'],
  ['/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', 'fonts-dejavu-core', 'test captions'],
  ['melt', 'melt', 'rendering exported MLT projects as Kdenlive and Shotcut do'],
];

/** Whether `cmd` is on PATH. */
export const has = (cmd) => spawnSync('sh', ['-c', `command -v "$1"`, 'sh', cmd], { stdio: 'ignore' }).status === 0;
const present = (bin) => (bin.startsWith('/') ? fs.existsSync(bin) : has(bin));

/** The Debian packages of `needed` whose binary or path is absent, each once. */
export function missingPackages(needed) {
  return [...new Set(needed.filter(([bin]) => !present(bin)).map(([, pkg]) => pkg))];
}

/**
 * Installs the missing packages of `needed` with apt-get (one progress line each). Returns the
 * packages still missing afterwards, with `hint` the one line to show when that list is not empty.
 */
export function provision(needed, { log = console.log } = {}) {
  const missing = missingPackages(needed);
  if (!missing.length) return { missing: [], hint: '' };
  const hint = (pkgs) =>
    `Missing system packages: ${pkgs
      .map((p) => `${p} (${needed.filter(([, q]) => q === p).map(([, , why]) => why)[0]})`)
      .join(', ')}. Install them with \`sudo apt-get install -y ${pkgs.join(' ')}\`.`;
  const canInstall = process.getuid?.() === 0 && has('apt-get') && fs.existsSync('/etc/debian_version');
  if (!canInstall) return { missing, hint: hint(missing) };
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const quiet = { stdio: ['ignore', 'ignore', 'pipe'], env, encoding: 'utf8' };
  log('Updating the apt package lists...');
  spawnSync('apt-get', ['update', '-qq'], quiet);
  for (const pkg of missing) {
    log(`Installing ${pkg} with apt-get...`);
    const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', pkg], quiet);
    if (r.status !== 0) log(`  apt-get could not install ${pkg}: ${(r.stderr || '').trim().split('\n').pop()}`);
  }
  const still = missingPackages(needed);
  return { missing: still, hint: still.length ? hint(still) : '' };
}
