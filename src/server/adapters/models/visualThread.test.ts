// The picture models on their own thread give the same features as on the calling thread, and
// the calling thread's event loop stays free while they run (it is the server's: searches wait on it).
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODELS_DIR } from '../../../../tests/fixtures/modelsDir';
import { createVisualAnalyzer } from './visual';
import { backgroundIsIdle } from '../process/tools';
import { VisualThread } from './visualThread';
import { typicalHold } from '../../../../tests/fixtures/eventLoop';

const PHOTOS = ['dog', 'horses', 'giraffe', 'kite', 'person', 'eagle'].map((n) => fs.readFileSync(`/usr/share/darknet/data/${n}.jpg`));

describe('VisualThread', () => {
  it('computes what the analyzer computes here, without holding this thread', async () => {
    const here = await createVisualAnalyzer(MODELS_DIR, { threads: 1, skip: ['faces'] });
    const thread = await VisualThread.open({ modelsDir: MODELS_DIR, threads: 1, skip: ['faces'] });
    try {
      expect(thread.capabilities).toEqual(here.capabilities);
      await Promise.all([here.analyze(PHOTOS.slice(0, 1)), thread.analyze(PHOTOS.slice(0, 1))]); // warm-up
      let local: Awaited<ReturnType<typeof here.analyze>> = [];
      let threaded: typeof local = [];
      const heldHere = await typicalHold(async () => (local = await here.analyze(PHOTOS)));
      const heldThread = await typicalHold(async () => (threaded = await thread.analyze(PHOTOS)));
      // The same labels, classes and embedding (the same models and decoding, on another thread).
      expect(threaded.map((f) => f.objects.map((o) => o.label))).toEqual(local.map((f) => f.objects.map((o) => o.label)));
      expect(threaded.map((f) => f.classes[0]?.label)).toEqual(local.map((f) => f.classes[0]?.label));
      expect([...threaded[0]!.embedding]).toEqual([...local[0]!.embedding]);
      expect(threaded[0]!.embedding).toBeInstanceOf(Float32Array);
      // Here, each detection holds the loop for a whole ONNX run; on the thread only messages pass.
      console.log(
        `[timing] event loop held at most ${heldHere.toFixed(0)} ms by the models here, ${heldThread.toFixed(0)} ms with the thread`,
      );
      expect(heldThread).toBeLessThan(heldHere / 2);
    } finally {
      await Promise.all([here.close(), thread.close()]);
    }
  }, 120_000);

  it.runIf(backgroundIsIdle())(
    'runs its thread (and the threads that one starts) under SCHED_IDLE, this one not',
    async () => {
      // Field 41 of a thread's stat is its scheduling policy (after "pid (comm) ", field 3 comes first); SCHED_IDLE is 5.
      const policy = (stat: string) => Number(fs.readFileSync(stat, 'utf8').split(') ')[1]!.split(' ')[38]);
      const policies = () => fs.readdirSync('/proc/self/task').map((tid) => policy(`/proc/self/task/${tid}/stat`));
      const before = policies().filter((p) => p === 5).length;
      const thread = await VisualThread.open({ modelsDir: MODELS_DIR, threads: 1, skip: ['faces', 'text'] });
      try {
        await thread.analyze(PHOTOS.slice(0, 1));
        expect(policies().filter((p) => p === 5).length).toBeGreaterThan(before);
        expect(policy('/proc/thread-self/stat')).toBe(0);
      } finally {
        await thread.close();
      }
    },
    120_000,
  );

  it('answers each batch in order and fails a batch it cannot read without stopping', async () => {
    const thread = await VisualThread.open({ modelsDir: MODELS_DIR, threads: 1, skip: ['faces', 'text'] });
    try {
      const [a, bad, b] = await Promise.all([
        thread.analyze([PHOTOS[0]!]),
        thread.analyze([Buffer.from('not an image')]),
        thread.analyze([PHOTOS[1]!]),
      ]);
      expect(a[0]!.objects.map((o) => o.label)).toContain('dog');
      expect(bad[0]!.missing.join(' ')).toMatch(/cannot decode/);
      expect(b[0]!.objects.map((o) => o.label)).toContain('horse');
    } finally {
      await thread.close();
    }
    await expect(thread.analyze([PHOTOS[0]!])).rejects.toThrow(/closed/);
  }, 120_000);
});
