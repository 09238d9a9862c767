import fs from 'node:fs';

/** CPU seconds of this process's finished children (ffmpeg), from /proc: the figure load does not distort. */
export function childCpuSeconds() {
  const f = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100; // cutime + cstime, in clock ticks (USER_HZ = 100)
}
