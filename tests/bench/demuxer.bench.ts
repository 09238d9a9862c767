// The thumbnail worker's own MP4 reader (rangeReader + mp4Boxes + movieIndex/stbl, as the worker
// calls them) against mediabunny (Input + UrlSource), in Chromium over HTTP byte ranges, on the two
// files of the thumbnails benchmark: a 2-hour 30 fps file (216,000 samples, moov at the end) and a
// 10-minute 720p H.264 file. Each run opens a new reader instance (cold). Fails when the two do not
// agree on the decoder config, the sample count, the keyframe times or the keyframes' bytes.
// Run under the Chromium lock:
//   flock /tmp/clipseek-chromium.lock npm run bench demuxer
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPage, servePages, type PageServer } from '../browser/harness';
import type { DemuxerDriver, KeyframesResult, OpenOptions, OpenResult, ReaderName } from '../browser/pages/demuxer/index';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const KEYFRAMES = 20;
const LAZY_KEYFRAMES = 10;
const READERS: ReaderName[] = ['ours', 'mediabunny', 'mediabunny+RangeReader'];

const out = path.resolve('tests/bench/out');
fs.mkdirSync(out, { recursive: true });

interface Media {
  name: string;
  url: string;
  file: string;
  duration: number;
  samples: number;
  /** ffmpeg arguments after `-y`, writing to the last one (the same as thumbnails.bench.ts, so either bench makes the file the other reads). */
  make: (to: string) => string[];
}

const MEDIA: Media[] = [
  {
    name: '2 h 144p 30 fps',
    url: '/media/long.mp4',
    file: path.join(out, 'long-2h-144p.mp4'),
    duration: 7200,
    samples: 216_000,
    make: (to) => [
      ...['-f', 'lavfi', '-i', 'testsrc2=s=256x144:r=30:d=7200'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '60', '-pix_fmt', 'yuv420p', to],
    ],
  },
  {
    name: '10 min 720p 25 fps',
    url: '/media/720p.mp4',
    file: path.join(out, 'thumbnails-10min-720p.mp4'),
    duration: 600,
    samples: 15_000,
    make: (to) => [
      ...['-f', 'lavfi', '-i', 'testsrc2=s=1280x720:r=25:d=600'],
      '-vf',
      "noise=alls=6:allf=t,drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf:text='%{pts\\:hms}':x=24:y=24:fontsize=56:fontcolor=white:box=1:boxcolor=black@0.6",
      ...['-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', '-crf', '23', '-pix_fmt', 'yuv420p', to],
    ],
  },
];

function ensureMedia(m: Media) {
  if (fs.existsSync(m.file)) return;
  const partial = m.file.replace(/\.mp4$/, '.partial.mp4');
  console.log(`generating ${path.relative(process.cwd(), m.file)} (a few minutes, cached afterwards)...`);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...m.make(partial)]);
  fs.renameSync(partial, m.file);
}

/** Times spread across the media, none on a GOP boundary. */
const spread = (duration: number, n: number) => Array.from({ length: n }, (_, i) => ((i + 0.37) * duration) / n);

const median = (v: number[]) => {
  const s = [...v].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

class Disagreement extends Error {
  readonly code = 'demuxer_disagreement';
  constructor(message: string) {
    super(message);
    this.name = 'Disagreement';
  }
}

const sameTimes = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((t, i) => Math.abs(t - b[i]!) <= 1);

/** Phases measured, per media and reader. */
type Phase =
  | 'open (full index)'
  | 'open (config + keyframe list)'
  | 'open (config + 10 keyframes located)'
  | `${typeof KEYFRAMES} keyframes, batch`
  | `${typeof KEYFRAMES} keyframes, one by one`;

interface Cell {
  ms: number[];
  /** Requests the server logged, and the bytes their ranges asked for (open-ended ranges count to the end of the file). */
  requests: number[];
  askedBytes: number[];
  /** From the counted run: requests made and body bytes the reader pulled, and V8 heap kept after the phase (after GC). */
  readBytes?: number;
  readRequests?: number;
  heapMB?: number;
}

async function main() {
  console.log(
    `load before: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${os.cpus().length} cores); ${RUNS} runs per cell`,
  );
  MEDIA.forEach(ensureMedia);
  const files = Object.fromEntries(MEDIA.map((m) => [m.url, m.file]));
  const server: PageServer = await servePages(files);
  const browser = await openPage(server, 'demuxer/index.html');
  let failed = false;
  try {
    await browser.page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
    // As thumbnails.bench.ts: Playwright's routing makes each range request 2-3x slower; the page
    // makes no off-host request once loaded (checked below from the server's log).
    if (!process.env.BENCH_KEEP_ROUTE) await browser.context.unroute('**/*');
    const cdp = await browser.context.newCDPSession(browser.page);
    const heapMB = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      const usage = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number; backingStorageSize?: number };
      return (usage.usedSize + (usage.backingStorageSize ?? 0)) / 2 ** 20;
    };
    const drive = <T>(fn: (d: DemuxerDriver, arg: never) => T | Promise<T>, arg: unknown): Promise<T> =>
      browser.page.evaluate(`(${fn.toString()})(window.demux, ${JSON.stringify(arg)})`) as Promise<T>;
    const open = (reader: ReaderName, url: string, o: OpenOptions = {}) =>
      drive((d, a: [ReaderName, string, OpenOptions]) => d.open(a[0], a[1], a[2]), [reader, url, o]);
    const keyframes = (times: number[], batch: boolean) =>
      drive((d, a: [number[], boolean]) => d.readKeyframes(a[0], a[1]), [times, batch]);
    const drop = () => drive((d) => d.drop(), null);
    const settle = () => new Promise((resolve) => setTimeout(resolve, 300)); // a reader's trailing reads after it answered
    let nth = 0;
    /** Runs `step` on a new URL (so nothing is cached between runs) and returns its result and the server's log of it. */
    const logged = async <T>(m: Media, step: (url: string) => Promise<T>) => {
      const from = server.requests.length;
      const result = await step(`${m.url}?run=${nth++}`);
      const reqs = server.requests.slice(from).filter((r) => r.path === m.url);
      return { result, requests: reqs.length, askedBytes: reqs.reduce((n, r) => n + r.bytes, 0) };
    };

    const table: Record<string, string | number>[] = [];
    const summary: Record<string, Record<string, number>> = {};
    for (const m of MEDIA) {
      const times = spread(m.duration, KEYFRAMES);
      const lazyTimes = spread(m.duration, LAZY_KEYFRAMES);
      const cells = new Map<string, Cell>();
      const cell = (reader: ReaderName, phase: Phase) => {
        const key = `${reader}\t${phase}`;
        if (!cells.has(key)) cells.set(key, { ms: [], requests: [], askedBytes: [] });
        return cells.get(key)!;
      };
      const record = (c: Cell, ms: number, l: { requests: number; askedBytes: number }) => {
        c.ms.push(ms);
        c.requests.push(l.requests);
        c.askedBytes.push(l.askedBytes);
      };
      const opened = new Map<ReaderName, OpenResult>();
      const read = new Map<string, KeyframesResult>();
      const check = (what: string, ok: boolean, detail: string) => {
        if (!ok) throw new Disagreement(`${m.name}: ${what}: ${detail}`);
      };
      const checkOpen = (reader: ReaderName, r: OpenResult) => {
        check(`${reader} sample count`, r.sampleCount === m.samples, `${r.sampleCount} (expected ${m.samples})`);
        const first = opened.get(reader === 'ours' ? 'mediabunny' : 'ours') ?? opened.get(reader);
        if (!first) return void opened.set(reader, r);
        check('codec', first.codec.toLowerCase() === r.codec.toLowerCase(), `${first.codec} / ${r.codec}`);
        check(
          'decoder description',
          first.descriptionHash === r.descriptionHash && first.descriptionBytes === r.descriptionBytes,
          `${first.descriptionBytes} B ${first.descriptionHash} / ${r.descriptionBytes} B ${r.descriptionHash}`,
        );
        check('sample count', first.sampleCount === r.sampleCount, `${first.sampleCount} / ${r.sampleCount}`);
        check(
          'keyframe times',
          sameTimes(first.keyframeTimesUs!, r.keyframeTimesUs!),
          `${first.keyframeTimesUs!.length} / ${r.keyframeTimesUs!.length} keyframes, first difference at ${first.keyframeTimesUs!.findIndex((t, i) => Math.abs(t - (r.keyframeTimesUs![i] ?? NaN)) > 1)}`,
        );
        opened.set(reader, r);
      };
      const checkKeyframes = (label: string, r: KeyframesResult) => {
        const first = [...read.values()][0];
        read.set(label, r);
        if (!first) return;
        r.frames.forEach((f, i) => {
          const g = first.frames[i]!;
          check(
            `keyframe ${i} (${label})`,
            Math.abs(f.timeUs - g.timeUs) <= 1 && f.bytes === g.bytes && f.hash === g.hash,
            `${JSON.stringify(g)} / ${JSON.stringify(f)}`,
          );
        });
      };

      for (let run = 0; run < RUNS; run++) {
        // Alternate which reader goes first, so neither always meets a warmer (or busier) browser.
        for (const reader of run % 2 ? [...READERS].reverse() : READERS) {
          const o = await logged(m, (url) => open(reader, url));
          checkOpen(reader, o.result);
          record(cell(reader, 'open (full index)'), o.result.ms, o);
          const k = await logged(m, () => keyframes(times, true));
          checkKeyframes(`${reader} batch`, k.result);
          record(cell(reader, `${KEYFRAMES} keyframes, batch`), k.result.ms, k);
          await drop();
          // One by one needs a reader whose cache does not already hold them: a new instance, opened untimed.
          await open(reader, `${m.url}?run=${nth++}`);
          const s = await logged(m, () => keyframes(times, false));
          checkKeyframes(`${reader} one by one`, s.result);
          record(cell(reader, `${KEYFRAMES} keyframes, one by one`), s.result.ms, s);
          await drop();
          if (reader === 'mediabunny') {
            const lazy = await logged(m, (url) => open(reader, url, { lazyTimes }));
            const keys = opened.get('ours')?.keyframeTimesUs;
            const expected = keys && lazyTimes.map((t) => keys.filter((k) => k <= Math.round(t * 1e6)).at(-1));
            check(
              'lazily located keyframes',
              !expected || sameTimes(lazy.result.locatedUs!, expected as number[]),
              `${JSON.stringify(lazy.result.locatedUs)} / ${JSON.stringify(expected)}`,
            );
            record(cell(reader, 'open (config + 10 keyframes located)'), lazy.result.ms, lazy);
            await drop();
            const listed = await logged(m, (url) => open(reader, url, { keyframesOnly: true }));
            const ours = opened.get('ours')?.keyframeTimesUs;
            check(
              'keyframe list',
              !ours || sameTimes(listed.result.keyframeTimesUs!, ours),
              `${listed.result.keyframeTimesUs!.length} / ${ours?.length} keyframes`,
            );
            record(cell(reader, 'open (config + keyframe list)'), listed.result.ms, listed);
            await drop();
          }
        }
      }

      // One counted run per reader: bytes the reader pulled (through a counting fetch) and heap kept.
      for (const reader of READERS) {
        const variants: [Phase, OpenOptions][] = [['open (full index)', {}]];
        if (reader === 'mediabunny')
          variants.push(
            ['open (config + keyframe list)', { keyframesOnly: true }],
            ['open (config + 10 keyframes located)', { lazyTimes }],
          );
        for (const [phase, o] of variants) {
          const base = await heapMB();
          await drive((d) => d.resetCounters(), null);
          await open(reader, `${m.url}?run=${nth++}`, { ...o, counted: true });
          await settle();
          const c = await drive((d) => d.counters(), null);
          Object.assign(cell(reader, phase), { readBytes: c.bytes, readRequests: c.requests, heapMB: (await heapMB()) - base });
          if (phase !== 'open (full index)') {
            await drop();
            continue;
          }
          await drive((d) => d.resetCounters(), null);
          await keyframes(times, true);
          await settle();
          const k = await drive((d) => d.counters(), null);
          Object.assign(cell(reader, `${KEYFRAMES} keyframes, batch`), {
            readBytes: k.bytes,
            readRequests: k.requests,
            heapMB: (await heapMB()) - base,
          });
          await drop();
        }
      }

      for (const [key, c] of cells) {
        const [reader, phase] = key.split('\t') as [ReaderName, Phase];
        const med = median(c.ms);
        (summary[`${m.name}: ${phase}`] ??= {})[reader] = med;
        table.push({
          media: m.name,
          reader,
          phase,
          'median ms': +med.toFixed(1),
          'min-max ms': `${c.ms.reduce((a, b) => Math.min(a, b)).toFixed(1)}-${c.ms.reduce((a, b) => Math.max(a, b)).toFixed(1)}`,
          requests: `${Math.min(...c.requests)}-${Math.max(...c.requests)}`,
          'KB read': c.readBytes === undefined ? '-' : Math.round(c.readBytes / 1024),
          'KB asked': Math.round(median(c.askedBytes) / 1024),
          'heap kept MB': c.heapMB === undefined ? '-' : +c.heapMB.toFixed(2),
        });
      }
    }
    console.table(table);
    console.log(
      '(ms: wall time in the page, cold reader each run. requests and KB asked: from the server log, timed runs; an open-ended range ' +
        '(bytes=N-) counts to the end of the file. KB read: body bytes the reader pulled through fetch, counted run, trailing reads ' +
        'included. heap kept: V8 heap plus array buffers after GC with the reader still held, against before it was opened, counted run.)',
    );
    for (const [what, by] of Object.entries(summary)) {
      for (const reader of READERS.filter((r) => r !== 'ours' && by[r] !== undefined && by.ours !== undefined))
        console.log(
          `${what}: ${reader} ${(by[reader]! / by.ours!).toFixed(2)}x ours (${by[reader]!.toFixed(1)} / ${by.ours!.toFixed(1)} ms)`,
        );
    }
    console.log('readers agree on codec, decoder description, sample count, keyframe times and the keyframes read: yes');
    // Everything the page asked for besides itself and the two media (nothing, once loaded).
    const unexpected = server.requests.filter((r) => !/^\/(media|demuxer|assets)\/|^\/favicon\.ico$/.test(r.path)).map((r) => r.path);
    if (browser.pageErrors.length || unexpected.length) {
      failed = true;
      console.error('page errors:', browser.pageErrors, 'unexpected requests:', unexpected);
    }
  } catch (e) {
    failed = true;
    console.error(e);
  } finally {
    await browser.close();
    await server.close();
  }
  console.log(
    `load after: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  if (failed) process.exit(1);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
