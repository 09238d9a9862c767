import { renderCompilation, renderGif, RenderToolError } from '../../adapters/media/render';
import type { Platform } from '../../platform';
import type { AccountService } from '../accounts/account.service';
import type { librariesModule } from '../libraries/libraries.module';
import type { ServerModule } from '../module';
import type { IngestBilling } from '../ports';
import { ExportService } from './export.service';
import { exportRoutes } from './export.routes';
import { FramingRepository } from './framing.repository';
import { FramingService } from './framing.service';
import { renderExpiryJob, renderJob } from './render.job';
import { RenderRepository } from './render.repository';
import { renderRoutes } from './render.routes';
import { RENDER_JOB, RenderService } from './render.service';

/** Rendering: MP4 compilations and GIFs of moments, charged when made, kept for a while; editor exports of them. */
export function renderModule(p: Platform, lib: ReturnType<typeof librariesModule>, credits: IngestBilling) {
  const repo = new RenderRepository(p.db);
  const subjects = new FramingRepository(p.db);
  const framing = new FramingService({
    owned: (userId, libraryId, mediaId) => lib.access.media(userId, libraryId, mediaId),
    subjects: (mediaId, start, end) => subjects.subjects(mediaId, start, end),
  });
  const renders = new RenderService({
    renders: repo,
    media: { owned: (userId, libraryId, mediaId) => lib.access.media(userId, libraryId, mediaId), byId: (id) => lib.media.byId(id) },
    transcript: (mediaId) => lib.index.transcript(mediaId),
    framing,
    blobs: p.blobs,
    queue: p.queue,
    credits,
    renderer: {
      compilation: renderCompilation,
      gif: renderGif,
      failureDetail: (err) => (err instanceof RenderToolError ? err.stderrTail : null),
    },
    workDir: p.workDir,
    log: p.log,
    waitMs: p.config.renderWaitMs,
  });
  const exports = new ExportService({
    checkClips: (user, body) => renders.checkedClips(user, body),
    media: { byId: (id) => lib.media.byId(id) },
    transcript: (mediaId) => lib.index.transcript(mediaId),
    framing,
  });
  return {
    renders,
    /** Renders being made, whose charges are on their way (for the billing info). */
    pending: repo,
    module: (accounts: AccountService): ServerModule => ({
      routes: (app) => {
        renderRoutes(app, accounts, renders, framing);
        exportRoutes(app, accounts, exports);
      },
      jobs: [renderJob(renders, p.config.renderWorkers), renderExpiryJob(renders)],
      resumableQueues: [RENDER_JOB],
    }),
  };
}
