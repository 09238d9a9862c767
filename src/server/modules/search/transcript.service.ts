import {
  checkTranscriptText,
  MSG_TRANSCRIPT,
  type TranscriptCorrection,
  type TranscriptCorrectionsAnswer,
  type TranscriptFile,
  type TranscriptLine,
} from '../../../contract';
import { AppError } from '../../errors';
import type { SegmentRow, TranscriptRepository } from './transcript.repository';
import type { Session } from '../accounts/account.service';
import type { Access } from '../libraries/access';

export interface TranscriptDeps {
  access: Access;
  transcripts: TranscriptRepository;
}

const toLine = (s: SegmentRow): TranscriptLine => ({
  id: s.id,
  start: Number(s.start),
  end: Number(s.end),
  text: s.text,
  speaker: s.speaker,
  original: s.original_text !== null && s.original_text !== s.text ? s.original_text : null,
  changes: Number(s.changes),
});

/**
 * A media's transcript and its corrections (issue 19). Only the media's owner reads or corrects it
 * (support impersonating them acts as them, and is recorded as such); read-only libraries (the demo)
 * are not corrected. The corrected text is the segment's text, so search and SRT use it at once.
 */
export class TranscriptService {
  constructor(private readonly d: TranscriptDeps) {}

  /** The transcript file (section 3) of a media `userId` owns, with whether they may correct it. */
  async file(userId: string, libraryId: string, mediaId: string): Promise<TranscriptFile> {
    const lib = await this.d.access.library(userId, libraryId);
    const media = await this.d.access.media(userId, libraryId, mediaId);
    return { segments: (await this.d.transcripts.segments(media.id)).map(toLine), editable: !lib.is_read_only && !lib.is_demo };
  }

  /** Saves `rawText` (checked by checkTranscriptText) as the segment's text; answers the line as saved. */
  async correct(session: Session, libraryId: string, mediaId: string, segmentId: string, rawText: string): Promise<TranscriptLine> {
    const media = await this.correctable(session, libraryId, mediaId);
    const checked = checkTranscriptText(rawText);
    if (!checked.ok) throw new AppError('validation_failed', checked.message);
    return this.apply(session, media.id, segmentId, 'edit', checked.text);
  }

  /** Puts back what speech to text heard (recorded as a 'restore'); a line never corrected stays as it is. */
  async restore(session: Session, libraryId: string, mediaId: string, segmentId: string): Promise<TranscriptLine> {
    const media = await this.correctable(session, libraryId, mediaId);
    return this.apply(session, media.id, segmentId, 'restore', '');
  }

  async corrections(userId: string, libraryId: string, mediaId: string, segmentId?: string): Promise<TranscriptCorrectionsAnswer> {
    const media = await this.d.access.media(userId, libraryId, mediaId);
    const rows = await this.d.transcripts.corrections(media.id, segmentId);
    return {
      corrections: rows.map((r): TranscriptCorrection => ({
        id: r.id,
        segmentId: r.segment_id,
        start: Number(r.start),
        end: Number(r.end),
        kind: r.kind,
        oldText: r.old_text,
        newText: r.new_text,
        at: new Date(r.created_at).toISOString(),
        by: r.email,
        via: r.impersonated_by,
      })),
    };
  }

  /** The media, when the caller owns it (else 404) in a library that is not read-only (else 403). */
  private async correctable(session: Session, libraryId: string, mediaId: string) {
    const lib = await this.d.access.library(session.user.id, libraryId);
    const media = await this.d.access.media(session.user.id, libraryId, mediaId);
    if (lib.is_read_only || lib.is_demo) throw new AppError('forbidden', MSG_TRANSCRIPT.readOnly);
    return media;
  }

  private async apply(session: Session, mediaId: string, segmentId: string, kind: 'edit' | 'restore', text: string) {
    const r = await this.d.transcripts.correct({
      mediaId,
      segmentId,
      text,
      kind,
      userId: session.user.id,
      impersonatedBy: session.claims.impersonatedBy ?? null,
    });
    if (!r) throw new AppError('not_found', MSG_TRANSCRIPT.segmentNotFound);
    return toLine(r.segment);
  }
}
