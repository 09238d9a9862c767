import { describe, expect, it } from 'vitest';
import { MSG_MEDIA, TOAST_MS } from '../../contract';
import { batchReport } from './uploadBatchReport';

const outcome = (succeeded: number, failed: string[], cancelled = 0, duplicates = 0) => ({
  succeeded,
  failed: failed.map((filename) => ({ filename, message: MSG_MEDIA.chunkFailed })),
  cancelled,
  duplicates,
});

describe('batchReport', () => {
  it('a batch that uploaded everything: Upload batch completed', () => {
    expect(batchReport(outcome(2, []))).toEqual({ title: MSG_MEDIA.uploadBatchCompleted, message: '2 files uploaded.', tone: 'success' });
    expect(batchReport(outcome(1, [], 1))?.message).toBe('1 file uploaded.');
  });

  it('a batch of which nothing uploaded: File upload failed, each file with its reason, for 10 s', () => {
    expect(batchReport(outcome(0, ['a.mp4']))).toEqual({
      title: MSG_MEDIA.uploadFailedTitle,
      message: MSG_MEDIA.uploadFailed('a.mp4', MSG_MEDIA.chunkFailed),
      tone: 'error',
      durationMs: TOAST_MS.uploadFailure,
    });
    const many = batchReport(outcome(0, ['a', 'b', 'c', 'd', 'e']))!;
    expect(many.message.split('\n')).toEqual([
      ...['a', 'b', 'c'].map((f) => MSG_MEDIA.uploadFailed(f, MSG_MEDIA.chunkFailed)),
      '2 files more failed.',
    ]);
  });

  it('a mixed batch is completed, with its failures named', () => {
    const r = batchReport(outcome(3, ['bad.mp4']))!;
    expect(r.title).toBe(MSG_MEDIA.uploadBatchCompleted);
    expect(r.tone).toBe('error');
    expect(r.message.split('\n')).toEqual(['3 files uploaded, 1 failed.', MSG_MEDIA.uploadFailed('bad.mp4', MSG_MEDIA.chunkFailed)]);
  });

  it('a batch only cleared or skipped has nothing more to say', () => {
    expect(batchReport(outcome(0, [], 2))).toBeNull();
    expect(batchReport(outcome(0, [], 0, 1))).toBeNull();
  });
});
