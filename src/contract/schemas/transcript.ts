import { Type, type Static } from 'typebox';
import { TRANSCRIPT_TEXT_MAX } from '../transcripts';
import { idParams, multiline, strict, Uuid } from './common';

export const transcriptSegmentParamsSchema = idParams('libraryId', 'mediaId', 'segmentId');
/**
 * PATCH API.transcriptSegment: the segment's new text. The wire allows some room over
 * TRANSCRIPT_TEXT_MAX (spaces that collapse); checkTranscriptText then says plainly what is wrong
 * with the text itself. Marked multiline so that a line break or tab is refused in its words (a
 * line holds none), not the input guard's.
 */
export const transcriptCorrectBodySchema = Type.Object(
  { text: Type.String({ maxLength: TRANSCRIPT_TEXT_MAX * 2, ...multiline }) },
  { additionalProperties: false },
);
/** GET API.transcriptCorrections: optionally one segment's changes only. */
export const transcriptCorrectionsQuerySchema = Type.Object({ segmentId: Type.Optional(Uuid) }, strict);

export type TranscriptSegmentParams = Static<typeof transcriptSegmentParamsSchema>;
export type TranscriptCorrectBody = Static<typeof transcriptCorrectBodySchema>;
export type TranscriptCorrectionsQuery = Static<typeof transcriptCorrectionsQuerySchema>;
