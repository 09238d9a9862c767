/**
 * Crash-test hook, inert in production. When (and only when) the environment variable
 * CLIPSEEK_TEST_HOLD names a point (a comma-separated list, e.g. `ingest:visual,render:charged`;
 * `point@subject` holds only there for that subject: a media's file name, a render's id), reaching
 * that point prints one `test hold` line on stdout and then waits forever, so
 * tests/integration/crashSafety.test.ts can SIGKILL the process at a known place instead of racing
 * a timer. The variable is read once at load; unset, as in every real deployment, `holdAt` resolves
 * at once and costs a set lookup.
 */
const points = new Set(
  (process.env.CLIPSEEK_TEST_HOLD ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean),
);

export function holdAt(point: string, subject: string, detail: Record<string, unknown> = {}): Promise<void> {
  if (!points.size || !(points.has(point) || points.has(`${point}@${subject}`))) return Promise.resolve();
  process.stdout.write(`${JSON.stringify({ msg: 'test hold', point, subject, pid: process.pid, ...detail })}\n`);
  return new Promise<void>(() => undefined);
}
