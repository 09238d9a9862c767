import type PgBoss from 'pg-boss';
import { describe, expect, it } from 'vitest';
import { JobPayloadError } from '../../jobs/registry';
import { INGEST_JOB } from '../libraries/library.service';
import { INGEST_QUEUES, ingestJobs } from './ingest.job';
import { STAGES, stageJob, type IngestService } from './ingest.service';
import { CHUNK_JOB } from './chunkRunner';

const MEDIA = '00000000-0000-4000-8000-0000000000aa';

function jobs() {
  const calls: unknown[][] = [];
  const ingest = {
    start: async (mediaId: string) => void calls.push(['start', mediaId]),
    runStage: async (stage: string, mediaId: string, opts: { retry?: boolean }) => void calls.push([stage, mediaId, opts]),
    runChunk: async (mediaId: string, stage: string, index: number) => void calls.push(['chunk', mediaId, stage, index]),
  } as unknown as IngestService;
  const byName = new Map(ingestJobs(ingest).map((j) => [j.name, j]));
  const run = (name: string, data: unknown, meta: object = {}) =>
    byName.get(name)!.handler(data, { id: 'j1', name, data, expireInSeconds: 60, ...meta } as PgBoss.Job<unknown>);
  return { calls, byName, run };
}

describe('ingest jobs', () => {
  it('one job per ingest queue: the media job, one per stage and the chunks', () => {
    const { byName } = jobs();
    expect([...byName.keys()]).toEqual(INGEST_QUEUES);
    expect(INGEST_QUEUES).toEqual([INGEST_JOB, ...STAGES.map(stageJob), CHUNK_JOB]);
  });

  it('starts the media and runs its stages with the media id, a retry told by the job', async () => {
    const { calls, run } = jobs();
    await run(INGEST_JOB, { mediaId: MEDIA });
    await run(stageJob('keyframes'), { mediaId: MEDIA }, { retryCount: 0 });
    await run(stageJob('speech'), { mediaId: MEDIA }, { retryCount: 2 });
    await run(CHUNK_JOB, { mediaId: MEDIA, stage: 'visual', index: 3 });
    expect(calls).toEqual([
      ['start', MEDIA],
      ['keyframes', MEDIA, { retry: false }],
      ['speech', MEDIA, { retry: true }],
      ['chunk', MEDIA, 'visual', 3],
    ]);
  });

  it('a job without a media id fails at once, naming the job and the field, and runs nothing', async () => {
    const { calls, run } = jobs();
    for (const [name, data] of [
      [INGEST_JOB, { id: MEDIA }],
      [stageJob('probe'), { mediaId: 42 }],
      [stageJob('complete'), { mediaId: 'not-a-uuid' }],
      [stageJob('visual'), null],
      [CHUNK_JOB, { mediaId: MEDIA, stage: 'preview', index: 0 }],
      [CHUNK_JOB, { mediaId: MEDIA, stage: 'speech', index: -1 }],
    ] as const) {
      const err = await run(name, data).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err, name).toBeInstanceOf(JobPayloadError);
      expect((err as Error).message, name).toMatch(new RegExp(`^Job ${name.replace('.', '\\.')} \\(j1\\) has a payload it cannot run: `));
    }
    expect(calls).toEqual([]);
  });
});
