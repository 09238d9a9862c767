import {
  API,
  mediaParamsSchema,
  transcriptCorrectBodySchema,
  transcriptCorrectionsQuerySchema,
  transcriptSegmentParamsSchema,
} from '../../../contract';
import type { App } from '../../http/types';
import type { AccountService } from '../accounts/account.service';
import type { TranscriptService } from './transcript.service';
import { requireAuth, sessionOf } from '../../http/auth';
import { ok, reply } from '../../http/envelope';

/**
 * Transcript corrections (issue 19; schemas in contract/schemas/transcript.ts). The transcript
 * itself is read through GET /data/transcript.json (preview.routes.ts), which says whether it is editable.
 */
export function transcriptRoutes(app: App, accounts: AccountService, transcripts: TranscriptService) {
  const auth = { preHandler: requireAuth(accounts) };

  app.patch(
    API.transcriptSegment(':libraryId', ':mediaId', ':segmentId'),
    { ...auth, schema: { params: transcriptSegmentParamsSchema, body: transcriptCorrectBodySchema } },
    async (req, res) => {
      const { libraryId, mediaId, segmentId } = req.params;
      return reply(req, res, ok(await transcripts.correct(sessionOf(req), libraryId, mediaId, segmentId, req.body.text)));
    },
  );
  app.post(
    API.transcriptSegmentRestore(':libraryId', ':mediaId', ':segmentId'),
    { ...auth, schema: { params: transcriptSegmentParamsSchema } },
    async (req, res) => {
      const { libraryId, mediaId, segmentId } = req.params;
      return reply(req, res, ok(await transcripts.restore(sessionOf(req), libraryId, mediaId, segmentId)));
    },
  );
  app.get(
    API.transcriptCorrections(':libraryId', ':mediaId'),
    { ...auth, schema: { params: mediaParamsSchema, querystring: transcriptCorrectionsQuerySchema } },
    async (req, res) => {
      const { libraryId, mediaId } = req.params;
      return reply(req, res, ok(await transcripts.corrections(sessionOf(req).user.id, libraryId, mediaId, req.query.segmentId)));
    },
  );
}
