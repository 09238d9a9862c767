import { describe, expect, it } from 'vitest';
import { ModelThread } from './modelThread';

const EXITING = new URL('../../../../tests/fixtures/exitingModel.worker.ts', import.meta.url);

describe('ModelThread', () => {
  it('answers calls in order; once its thread has stopped, refuses calls instead of leaving them waiting, and closes', async () => {
    const thread = await ModelThread.open<undefined, number | 'exit' | 'throw', number>(EXITING, null, 'test model');
    try {
      expect(await Promise.all([thread.call(1), thread.call(2)])).toEqual([2, 4]);
      // A call that fails in the thread fails alone, named after the model; the thread goes on.
      await expect(thread.call('throw')).rejects.toThrow('test model: cannot read it');
      expect(await thread.call(5)).toBe(10);
      await expect(thread.call('exit')).rejects.toThrow('test model: its thread stopped');
      // Before the fix a call after the exit was posted to the dead thread and never settled.
      const later = await Promise.race([
        thread.call(3).then(
          () => 'answered',
          (err: Error) => err.message,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting after 2 s'), 2000)),
      ]);
      expect(later).toBe('test model: its thread stopped');
    } finally {
      await thread.close(); // at once: it waited for an exit that had already happened, for ever
    }
  }, 30_000);

  it("fails to open with the worker's reason when it cannot open its models", async () => {
    await expect(ModelThread.open(EXITING, 'fail', 'test model')).rejects.toThrow('test model: no model file');
  }, 30_000);
});
