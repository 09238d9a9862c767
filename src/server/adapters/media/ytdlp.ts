import { spawnTool } from '../process/tools';
import fs from 'node:fs';
import path from 'node:path';

/** What yt-dlp's JSON says about a video or a (flat) playlist; only the fields link import reads. */
export interface YtInfo {
  _type?: string;
  id?: string;
  title?: string;
  url?: string;
  webpage_url?: string;
  original_url?: string;
  duration?: number | null;
  thumbnail?: string | null;
  thumbnails?: Array<{ url?: string }> | null;
  description?: string | null;
  timestamp?: number | null;
  upload_date?: string | null;
  channel?: string | null;
  uploader?: string | null;
  extractor_key?: string;
  ie_key?: string;
  entries?: YtInfo[] | null;
}

/** yt-dlp ran but could not read or fetch the link; `detail` is its last error line. */
export class LinkToolError extends Error {
  constructor(
    readonly detail: string,
    readonly timedOut = false,
  ) {
    super(detail);
    this.name = 'LinkToolError';
  }
}

export interface YtDlpOptions {
  /** The yt-dlp binary (config YTDLP_PATH). */
  bin: string;
  /** Every connection goes through this proxy (the egress check); see egressProxy.ts. */
  proxy: string;
  /** Tests only: their loopback pages use a throwaway self-signed certificate. */
  insecureTls: boolean;
  maxBytes: number;
  maxSeconds: number;
  peekTimeoutMs: number;
  downloadTimeoutMs: number;
}

interface RunResult {
  stdout: string;
  stderr: string;
}

/** The last ERROR line yt-dlp wrote, without its prefix, or the last line at all. */
function lastError(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const err = [...lines].reverse().find((l) => l.startsWith('ERROR:')) ?? lines[lines.length - 1] ?? 'yt-dlp failed';
  return err.replace(/^ERROR:\s*/, '').slice(0, 400);
}

/**
 * Runs yt-dlp as a child process: an argument array (no shell), in its own process group so a
 * timeout kills it with everything it started (ffmpeg for merges), its own working folder, and a
 * watchdog on the bytes it wrote there.
 */
function run(
  o: YtDlpOptions,
  args: string[],
  cwd: string,
  timeoutMs: number,
  opts: { onLine?(line: string): void; watchBytes?: boolean } = {},
): Promise<RunResult> {
  const common = [
    '--ignore-config',
    '--no-cache-dir',
    '--proxy',
    o.proxy,
    '--socket-timeout',
    '20',
    '--retries',
    '1',
    '--fragment-retries',
    '1',
    ...(o.insecureTls ? ['--no-check-certificates'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = spawnTool(o.bin, [...common, ...args], {
      cwd,
      detached: true,
      // The proxy again for anything yt-dlp starts (ffmpeg reads http_proxy too).
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: cwd,
        LANG: 'C.UTF-8',
        http_proxy: o.proxy,
        https_proxy: o.proxy,
        HTTP_PROXY: o.proxy,
        HTTPS_PROXY: o.proxy,
        ALL_PROXY: o.proxy,
        no_proxy: '',
      },
    });
    let stdout = '';
    let stderr = '';
    let killedFor: string | null = null;
    const kill = (why: string) => {
      if (killedFor) return;
      killedFor = why;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => kill(`it took longer than ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    const watch = opts.watchBytes
      ? setInterval(() => {
          if (folderBytes(cwd) > o.maxBytes) kill(`it is larger than ${o.maxBytes} bytes`);
        }, 500)
      : null;
    let partial = '';
    child.stdout.on('data', (d: Buffer) => {
      const text = d.toString();
      if (!opts.onLine) {
        stdout += text;
        return;
      }
      partial += text;
      const lines = partial.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) opts.onLine(l);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-20_000);
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      if (watch) clearInterval(watch);
      reject(new LinkToolError(`yt-dlp could not be started: ${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (watch) clearInterval(watch);
      if (killedFor) return reject(new LinkToolError(`the download was stopped because ${killedFor}`, true));
      if (code !== 0) return reject(new LinkToolError(lastError(stderr)));
      resolve({ stdout, stderr });
    });
  });
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    if (f.isFile()) total += fs.statSync(path.join(dir, f.name), { throwIfNoEntry: false })?.size ?? 0;
  }
  return total;
}

/**
 * Formats yt-dlp downloads itself over https (plain files, native HLS and DASH): never RTMP, RTSP,
 * MMS or anything handed to another program that would not go through the proxy.
 */
const OVER_HTTPS = "[protocol~='^(https|m3u8_native|http_dash_segments)$']";
const FORMAT = [
  `bv*[height<=1080]${OVER_HTTPS}+ba${OVER_HTTPS}`,
  `b[height<=1080]${OVER_HTTPS}`,
  `bv*${OVER_HTTPS}+ba${OVER_HTTPS}`,
  `b${OVER_HTTPS}`,
].join('/');

/** yt-dlp behind the link-import port: reading link info and downloading one video. */
export function ytDlp(o: YtDlpOptions) {
  return {
    /** The JSON listing of a link; playlists and channels flat (entries not resolved one by one). */
    async info(url: string, workDir: string, opts: { flat: boolean; maxEntries: number }): Promise<YtInfo> {
      const dir = fs.mkdtempSync(path.join(workDir, 'peek-'));
      try {
        const args = [
          '-J',
          '--no-warnings',
          '--playlist-items',
          `1:${opts.maxEntries}`,
          ...(opts.flat ? ['--flat-playlist'] : ['--no-playlist']),
        ];
        const r = await run(o, [...args, '--', url], dir, o.peekTimeoutMs);
        const parsed = JSON.parse(r.stdout) as YtInfo | null;
        if (!parsed) throw new LinkToolError(lastError(r.stderr));
        return parsed;
      } catch (err) {
        if (err instanceof SyntaxError) throw new LinkToolError('yt-dlp answered something that is not JSON');
        throw err;
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },

    /**
     * Downloads one video into `dir` (which it owns) and returns the file. Progress is the share
     * of bytes (or of HLS fragments) yt-dlp reports.
     */
    async download(url: string, dir: string, onProgress: (f: number) => void): Promise<{ file: string; info: YtInfo }> {
      fs.mkdirSync(dir, { recursive: true });
      const args = [
        '--no-playlist',
        '--newline',
        '--no-part',
        '--no-mtime',
        '--no-warnings',
        '--restrict-filenames',
        '--downloader',
        'native',
        '--max-filesize',
        String(o.maxBytes),
        '--match-filter',
        `duration <=? ${o.maxSeconds}`,
        '-f',
        FORMAT,
        '--merge-output-format',
        'mp4',
        '--write-info-json',
        '-o',
        'video.%(ext)s',
        '--progress-template',
        'download:progress %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s %(progress.fragment_index)s %(progress.fragment_count)s',
        '--',
        url,
      ];
      await run(o, args, dir, o.downloadTimeoutMs, {
        watchBytes: true,
        onLine: (line) => {
          const m = /^progress (\S+) (\S+) (\S+) (\S+) (\S+)/.exec(line.trim());
          if (!m) return;
          const [done, total, estimate, fragment, fragments] = m.slice(1).map(Number);
          const f = fragments && fragment ? fragment / fragments : done && (total || estimate) ? done / (total || estimate!) : NaN;
          if (Number.isFinite(f)) onProgress(Math.max(0, Math.min(1, f)));
        },
      });
      const files = fs.readdirSync(dir).filter((f) => f.startsWith('video.') && !f.endsWith('.json') && !f.endsWith('.part'));
      if (!files.length) throw new LinkToolError('no video was downloaded (it may be longer or larger than allowed)');
      const file = path.join(dir, files.sort((a, b) => fs.statSync(path.join(dir, b)).size - fs.statSync(path.join(dir, a)).size)[0]!);
      const infoFile = path.join(dir, 'video.info.json');
      const info = fs.existsSync(infoFile) ? (JSON.parse(fs.readFileSync(infoFile, 'utf8')) as YtInfo) : {};
      return { file, info };
    },
  };
}

export type YtDlp = ReturnType<typeof ytDlp>;
