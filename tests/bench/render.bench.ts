// Server rendering on this machine: a compilation of 5 moments totalling 60 s at 720p from a 1080p
// upload and from a 720p upload, as the render job reads them (their HLS rendition: scaled to 720p
// for the 1080p upload, the original's own stream copied for the 720p one), the 1080p original read
// directly for reference, and a 5 s GIF. Targets: the compilation >= 10x real time, the GIF <= 3 s. Runs the same ffmpeg
// adapter the `media.render` job calls.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeHls } from '../../src/server/adapters/media/ffmpeg';
import { renderCompilation, renderGif, type RenderClip } from '../../src/server/adapters/media/render';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'clipseek-renderbench-'));
const SOURCE_SECONDS = 70;
const source = path.join(dir, 'source1080.mp4');
console.log(`making a ${SOURCE_SECONDS} s 1080p30 source with audio...`);
execFileSync('ffmpeg', [
  ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${SOURCE_SECONDS}`],
  ...['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=48000:duration=${SOURCE_SECONDS}`],
  ...['-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '18', '-g', '60', '-pix_fmt', 'yuv420p'],
  ...['-c:a', 'aac', '-ac', '2', '-shortest', source],
]);
const hlsDir = path.join(dir, 'hls');
await makeHls(source, hlsDir, { duration: SOURCE_SECONDS, height: 1080, videoCodec: 'h264', audioCodec: 'aac' });
const rendition = path.join(hlsDir, 'playlist.m3u8');
// A 720p H.264 upload: its rendition is the original's stream, copied (makeHls).
const source720 = path.join(dir, 'source720.mp4');
execFileSync('ffmpeg', [
  ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1280x720:rate=30:duration=${SOURCE_SECONDS}`],
  ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=44100:duration=${SOURCE_SECONDS}`],
  ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '20', '-g', '60', '-pix_fmt', 'yuv420p'],
  ...['-c:a', 'aac', '-ac', '2', '-shortest', source720],
]);
const hls720 = path.join(dir, 'hls720');
const copied = await makeHls(source720, hls720, { duration: SOURCE_SECONDS, height: 720, videoCodec: 'h264', audioCodec: 'aac' });
if (!copied.copied) throw new Error('expected the 720p upload to be copied into its rendition');
const rendition720 = path.join(hls720, 'playlist.m3u8');

const moments = [0, 14, 28, 42, 56].map((s) => ({ start: s + 0.37, end: s + 12.37 }));
const clipsOf = (input: string, height: number): RenderClip[] =>
  moments.map((m) => ({ input, ...m, width: (height * 16) / 9, height, frameRate: 30, hasAudio: true }));

/** CPU seconds of this process's finished children (ffmpeg), from /proc: the figure load does not distort. */
function childCpuSeconds() {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime, in clock ticks (USER_HZ = 100)
}

const rows: Array<{
  case: string;
  load: string;
  output: string;
  wall: string;
  speed: string;
  cpu: string;
  idle: string;
  size: string;
  target: string;
}> = [];
async function time(label: string, seconds: number, target: (ms: number) => string, fn: () => Promise<{ bytes: number }>) {
  const t0 = performance.now();
  const c0 = childCpuSeconds();
  const r = await fn();
  const ms = performance.now() - t0;
  const cpu = childCpuSeconds() - c0;
  const cores = os.availableParallelism();
  rows.push({
    case: label,
    load: os.loadavg()[0]!.toFixed(1),
    output: `${seconds.toFixed(1)} s`,
    wall: `${(ms / 1000).toFixed(2)} s`,
    speed: `${(seconds / (ms / 1000)).toFixed(1)}x`,
    cpu: `${cpu.toFixed(1)} s`,
    idle: `${(seconds / (cpu / cores)).toFixed(1)}x`,
    size: `${(r.bytes / 1024 ** 2).toFixed(1)} MiB`,
    target: target(ms),
  });
}
const realTime = (ms: number) => (60 / (ms / 1000) >= 10 ? 'ok (>= 10x)' : 'MISSED (< 10x)');
// `idle` estimates the speed on an idle machine: output seconds / (ffmpeg CPU seconds / cores).

for (const watermark of [true, false]) {
  const mark = watermark ? 'watermark' : 'no mark';
  await time(`compilation 5x12 s, 1080p upload (its 720p rendition), ${mark}`, 60, realTime, () =>
    renderCompilation(clipsOf(rendition, 720), path.join(dir, 'a.mp4'), { height: 720, watermark }),
  );
  await time(`compilation 5x12 s, 720p upload (rendition = original), ${mark}`, 60, realTime, () =>
    renderCompilation(clipsOf(rendition720, 720), path.join(dir, 'e.mp4'), { height: 720, watermark }),
  );
}
const reference = () => 'reference (not what the job reads)';
await time('reference: compilation 5x12 s, 1080p original read directly, watermark', 60, reference, () =>
  renderCompilation(clipsOf(source, 1080), path.join(dir, 'b.mp4'), { height: 720, watermark: true }),
);
await time('reference: compilation 5x12 s, 1080p upload, x264 veryfast, watermark', 60, reference, () =>
  renderCompilation(clipsOf(rendition, 720), path.join(dir, 'c.mp4'), { height: 720, watermark: true, preset: 'veryfast' }),
);
await time(
  'gif 5 s (15 fps, 480 px), 720p rendition, watermark',
  5,
  (ms) => (ms <= 3000 ? 'ok (<= 3 s)' : 'MISSED (> 3 s)'),
  () => renderGif({ ...clipsOf(rendition, 720)[0]!, start: 20.2, end: 25.2 }, path.join(dir, 'd.gif'), { watermark: true }),
);
const probe = execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path.join(dir, 'a.mp4')]);
// `load` is the 1-minute load average after each case: other work on the machine slows every figure.
console.log(`\n${os.availableParallelism()} cores; compilation output duration ${Number(probe.toString()).toFixed(3)} s`);
console.table(rows);
fs.rmSync(dir, { recursive: true, force: true });
