import { API, compilationExportBodySchema } from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { ExportService } from './export.service';
import { requireAuth, sessionOf } from '../../http/auth';

/** An attachment's Content-Disposition: an ASCII name, and the exact one in RFC 5987 form. */
const attachment = (filename: string) =>
  `attachment; filename="${filename.replace(/[^\x20-\x7e]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(filename)}`;

/** Issue 39: POST API.renderExport answers the compilation as a video editor's project file (body CompilationExportBody). */
export function exportRoutes(app: App, accounts: AccountService, exports: ExportService) {
  app.post(API.renderExport, { preHandler: requireAuth(accounts), schema: { body: compilationExportBodySchema } }, async (req, res) => {
    const file = await exports.export(sessionOf(req).user, req.body);
    return res
      .type(file.contentType)
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachment(file.filename))
      .send(file.text);
  });
}
