/**
 * Transcript corrections (issue 19; the spec names no calls for them). Speech to text makes
 * mistakes: the media's owner (or support acting as them) rewrites a segment's text. The corrected
 * text is what transcript and unified search, the transcript file and SRT downloads use from then
 * on; the recogniser's text is kept beside it and can be restored, and every change is recorded.
 * The request schemas, and the types derived from them, are schemas/transcript.ts.
 */

/** The longest a segment's text may be, in characters (Unicode code points, as JSON schema counts). */
export const TRANSCRIPT_TEXT_MAX = 1000;

/** One segment of a media's transcript as the transcript file answers it. */
export interface TranscriptLine {
  id: string;
  start: number;
  end: number;
  /** What was said: the correction when there is one, else what speech to text heard. */
  text: string;
  speaker: string | null;
  /** What speech to text heard, when the text was corrected since (null: the text is as recognised). */
  original: string | null;
  /** How many changes of its text were recorded (restores included): its history's length. */
  changes: number;
}

/** One recorded change of a segment's text, newest first in CorrectionsAnswer. */
export interface TranscriptCorrection {
  id: string;
  /** Null when the segment no longer exists (the media was transcribed again). */
  segmentId: string | null;
  start: number;
  end: number;
  /** 'edit': text typed by a person; 'restore': back to what speech to text heard. */
  kind: 'edit' | 'restore';
  oldText: string;
  newText: string;
  /** ISO time of the change. */
  at: string;
  /** The account the change was made in (the media's owner). */
  by: string;
  /** The support address that made it while impersonating the owner; null when the owner did. */
  via: string | null;
}

// The request shapes (TranscriptSegmentParams, TranscriptCorrectBody...) are schemas/transcript.ts.
export interface TranscriptCorrectionsAnswer {
  /** Newest first; the latest 1000. */
  corrections: TranscriptCorrection[];
}

/** Strings of transcript corrections (not named by the spec; stable wording). */
export const MSG_TRANSCRIPT = {
  empty: 'A line cannot be empty: type what is said.',
  tooLong: (n: number) => `A line can hold at most ${TRANSCRIPT_TEXT_MAX} characters (this one has ${n}).`,
  controlCharacters: 'A line cannot hold line breaks, tabs or other control characters.',
  invalidCharacters: 'The text holds a character that is not valid Unicode.',
  segmentNotFound: 'This transcript line no longer exists.',
  readOnly: 'This library is read-only: its transcripts cannot be corrected.',
  saving: 'Saving…',
  saved: 'Saved',
  notSaved: (reason: string) => `Not saved: ${reason}`,
  restored: 'Original restored',
  edited: 'Corrected',
  restoreOriginal: 'Restore original',
  editHint: 'Select a line and press Enter to correct it',
  editingHint: 'Enter saves · Esc cancels · Tab goes to the next line',
} as const;

/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The text a segment is saved with (NFC, runs of spaces collapsed, trimmed), or what is wrong with
 * it. The server decides with this; the app uses it to say so before sending.
 */
export function checkTranscriptText(raw: string): { ok: true; text: string } | { ok: false; message: string } {
  if (CONTROL.test(raw)) return { ok: false, message: MSG_TRANSCRIPT.controlCharacters };
  if (LONE_SURROGATE.test(raw)) return { ok: false, message: MSG_TRANSCRIPT.invalidCharacters };
  const text = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!text) return { ok: false, message: MSG_TRANSCRIPT.empty };
  const length = [...text].length;
  if (length > TRANSCRIPT_TEXT_MAX) return { ok: false, message: MSG_TRANSCRIPT.tooLong(length) };
  return { ok: true, text };
}
