import { API, compilationExportBodySchema, compilationSubtitlesBodySchema } from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { ExportService } from './export.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { sendAttachment } from '../../http/contentDisposition';

/**
 * Issue 39: POST API.renderExport answers the compilation as a video editor's project file (body
 * CompilationExportBody), POST API.renderSubtitles as its captions (SRT or WebVTT).
 */
export function exportRoutes(app: App, accounts: AccountService, exports: ExportService) {
  app.post(
    API.renderSubtitles,
    { preHandler: requireAuth(accounts), schema: { body: compilationSubtitlesBodySchema } },
    async (req, res) => {
      const subs = await exports.subtitles(sessionOf(req).user, req.body);
      const type = subs.format === 'vtt' ? 'text/vtt; charset=utf-8' : 'application/x-subrip; charset=utf-8';
      return sendAttachment(res, type, subs.filename, subs.text);
    },
  );
  app.post(API.renderExport, { preHandler: requireAuth(accounts), schema: { body: compilationExportBodySchema } }, async (req, res) => {
    const file = await exports.export(sessionOf(req).user, req.body);
    return sendAttachment(res, file.contentType, file.filename, file.text);
  });
}
