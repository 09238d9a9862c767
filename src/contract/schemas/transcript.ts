import { Type, type Static } from 'typebox';
import { TRANSCRIPT_TEXT_MAX } from '../transcripts';
import { idParams, strict, Uuid } from './common';

export const transcriptSegmentParamsSchema = idParams('libraryId', 'mediaId', 'segmentId');
/**
 * PATCH API.transcriptSegment: the segment's new text. The wire allows some room over
 * TRANSCRIPT_TEXT_MAX (spaces that collapse); checkTranscriptText then says plainly what is wrong
 * with the text itself. Not free text: a line holds no line break or tab, so the input guard refuses
 * every C0 control character here before the service runs (C1 controls and U+2028/9 are the service's).
 */
export const transcriptCorrectBodySchema = Type.Object(
  { text: Type.String({ maxLength: TRANSCRIPT_TEXT_MAX * 2 }) },
  { additionalProperties: false },
);
/** GET API.transcriptCorrections: optionally one segment's changes only. */
export const transcriptCorrectionsQuerySchema = Type.Object({ segmentId: Type.Optional(Uuid) }, strict);

export type TranscriptSegmentParams = Static<typeof transcriptSegmentParamsSchema>;
export type TranscriptCorrectBody = Static<typeof transcriptCorrectBodySchema>;
export type TranscriptCorrectionsQuery = Static<typeof transcriptCorrectionsQuerySchema>;
