import type { RenderService } from './render.service';
import { RENDER_JOB } from './render.service';
import { Type } from 'typebox';
import { Uuid } from '../../../contract';
import { defineCronJob, defineJob, type JobDefinition } from '../../jobs/registry';

/** The payload of a render's job (render.service.ts queues it). */
export const RenderJobPayload = Type.Object({ renderId: Uuid });

/**
 * One job per render, run by whichever process runs jobs (ROLE=all or worker). `workers` renders
 * at once in this process; the service's start gate caps all processes together (spec section 9:
 * 16 at once, 2 starts a second). The handler records failures itself, so pg-boss retries only
 * after a crash (at boot in embedded mode; with PostgreSQL through its lease, jobs/leases.ts).
 */
export const renderJob = (renders: RenderService, workers: number): JobDefinition =>
  defineJob({
    name: RENDER_JOB,
    payload: RenderJobPayload,
    options: { name: RENDER_JOB, retryLimit: 2, retryDelay: 2, expireInSeconds: 20 * 60 },
    workOptions: { batchSize: 1, pollingIntervalSeconds: 0.5 },
    workers,
    leased: true,
    handler: ({ renderId }) => renders.run(renderId),
  });

/** Every 10 minutes: expired render outputs are deleted (blob and row). */
export const renderExpiryJob = (renders: RenderService): JobDefinition =>
  defineCronJob({
    name: 'renders.expire',
    cron: '*/10 * * * *',
    handler: async () => void (await renders.expire()),
  });
