import { proxy } from 'valtio';
import { subscribeKey } from 'valtio/utils';
import type { Moment, TranscriptLine } from '../../contract';
import { session } from './session';

/**
 * Transcript lines corrected in this session, by media and range: the results already on the
 * search page (a transcript moment is its line's exact range) show the words as corrected until
 * the next search asks the server again.
 */
export const transcriptEdits = proxy<{ lines: Record<string, string> }>({ lines: {} });

const keyOf = (mediaId: string, start: number, end: number) => `${mediaId}@${start}-${end}`;

/** Notes a line as the server saved it (corrected or restored). */
export function noteTranscriptLine(mediaId: string, line: TranscriptLine) {
  transcriptEdits.lines[keyOf(mediaId, line.start, line.end)] = line.text;
}

/** The corrected text of a moment that is exactly one line corrected in this session, else null. */
export const correctedText = (lines: Readonly<Record<string, string>>, m: Pick<Moment, 'mediaId' | 'startTime' | 'endTime'>) =>
  lines[keyOf(m.mediaId, m.startTime, m.endTime)] ?? null;

// Another account's corrections must never show.
subscribeKey(session, 'token', (token) => {
  if (!token) transcriptEdits.lines = {};
});
