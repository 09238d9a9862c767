import type { FocusEvent, KeyboardEvent, RefObject } from 'react';
import { MSG_TRANSCRIPT, TRANSCRIPT_TEXT_MAX, type TranscriptLine } from '../../contract';
import { Button } from '../ui/Button';
import { MatchedText } from './MatchedText';
import { TranscriptHistory } from './TranscriptHistory';
import { flattenDraft, shownText, type Editing, type LineStatus } from './transcriptEditing';
import { formatClock } from '../ui/format';

export interface TranscriptRowProps {
  line: TranscriptLine;
  index: number;
  status: LineStatus | undefined;
  /** The search's words, marked in the text. */
  terms: readonly string[];
  inMoment: boolean;
  /** Playing now. */
  active: boolean;
  /** Chosen by the user: its actions show. */
  selected: boolean;
  /** The line Tab reaches in the list (roving focus). */
  tabbable: boolean;
  editable: boolean;
  /** The line's editor, when it is open. */
  edit: Editing | null;
  historyOpen: boolean;
  hintId: string;
  errorId: string;
  libraryId: string;
  mediaId: string;
  rowRef: (el: HTMLButtonElement | null) => void;
  editorRef: RefObject<HTMLTextAreaElement | null>;
  onSelect: () => void;
  onSeek: () => void;
  onEdit: () => void;
  onDraft: (draft: string) => void;
  onEditorKey: (e: KeyboardEvent<HTMLTextAreaElement>) => void;
  onEditorBlur: (e: FocusEvent<HTMLTextAreaElement>) => void;
  onFinish: (action: 'save' | 'cancel') => void;
  onRetry: () => void;
  onDiscard: () => void;
  onRestore: () => void;
  onToggleHistory: () => void;
}

/**
 * One transcript line: a button that seeks there (and is the line's keyboard stop), or its editor;
 * under it where its save stands and, once selected, its actions (Edit, Restore original, History).
 */
export function TranscriptRow({
  line,
  index,
  status,
  terms,
  inMoment,
  active,
  selected,
  tabbable,
  editable,
  edit,
  historyOpen,
  hintId,
  errorId,
  libraryId,
  mediaId,
  rowRef,
  editorRef,
  onSelect,
  onSeek,
  onEdit,
  onDraft,
  onEditorKey,
  onEditorBlur,
  onFinish,
  onRetry,
  onDiscard,
  onRestore,
  onToggleHistory,
}: TranscriptRowProps) {
  const text = shownText(line, status);
  const time = formatClock(line.start);
  return (
    <li
      className={[
        'moment-lines__item',
        inMoment && 'moment-lines__item--in',
        active && 'moment-lines__item--active',
        selected && 'moment-lines__item--selected',
        edit && 'moment-lines__item--editing',
      ]
        .filter(Boolean)
        .join(' ')}
      aria-current={active || undefined}
      data-segment-id={line.id}
    >
      {edit ? (
        <div className="transcript-edit">
          <span className="moment-lines__time">{time}</span>
          <div className="transcript-edit__body">
            <textarea
              ref={editorRef}
              className="transcript-edit__input"
              aria-label={`Transcript line at ${time}`}
              aria-invalid={edit.error ? true : undefined}
              aria-describedby={`${edit.error ? errorId : ''} ${hintId}`.trim()}
              aria-keyshortcuts="Enter Escape Tab Shift+Tab"
              rows={1}
              spellCheck
              autoComplete="off"
              enterKeyHint="done"
              value={edit.draft}
              onChange={(e) => onDraft(flattenDraft(e.target.value))}
              onKeyDown={onEditorKey}
              onBlur={onEditorBlur}
            />
            {edit.error ? (
              <p id={errorId} className="transcript-edit__error" role="alert">
                {edit.error}
              </p>
            ) : (
              [...edit.draft].length > TRANSCRIPT_TEXT_MAX * 0.9 && (
                <p className="transcript-edit__count">
                  {[...edit.draft].length} / {TRANSCRIPT_TEXT_MAX}
                </p>
              )
            )}
            <div className="transcript-edit__actions">
              {/* Pressing them must not take the focus (that would save on blur first). */}
              <Button size="sm" onMouseDown={(e) => e.preventDefault()} onClick={() => onFinish('save')}>
                Save
              </Button>
              <Button size="sm" variant="ghost" onMouseDown={(e) => e.preventDefault()} onClick={() => onFinish('cancel')}>
                Cancel
              </Button>
            </div>
          </div>
        </div>
      ) : (
        <button
          ref={rowRef}
          type="button"
          className="moment-lines__seek"
          data-line={index}
          tabIndex={tabbable ? 0 : -1}
          aria-label={`${time} ${text}`}
          aria-describedby={editable ? hintId : undefined}
          aria-keyshortcuts={editable ? 'Enter F2' : undefined}
          onFocus={onSelect}
          onClick={onSeek}
          onDoubleClick={onEdit}
        >
          <span className="moment-lines__time">{time}</span>
          <span className="moment-lines__text">
            <MatchedText text={text} terms={terms} />
          </span>
          <LineBadge line={line} status={status} />
        </button>
      )}
      {status?.kind === 'failed' && !edit && (
        <div className="transcript-line__failed" role="alert">
          <span>{MSG_TRANSCRIPT.notSaved(status.message)}</span>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={onDiscard}>
            Discard
          </Button>
        </div>
      )}
      {editable && selected && !edit && (
        <div className="transcript-line__actions">
          {line.original !== null && (
            <span className="transcript-line__heard">
              Heard as: <q>{line.original}</q>
            </span>
          )}
          <div className="transcript-line__buttons">
            <Button size="sm" variant="ghost" onClick={onEdit} aria-keyshortcuts="Enter">
              Edit
            </Button>
            {line.original !== null && (
              <Button size="sm" variant="ghost" disabled={status?.kind === 'saving'} onClick={onRestore}>
                {MSG_TRANSCRIPT.restoreOriginal}
              </Button>
            )}
            {line.changes > 0 && (
              <Button size="sm" variant="ghost" aria-expanded={historyOpen} onClick={onToggleHistory}>
                History ({line.changes})
              </Button>
            )}
          </div>
        </div>
      )}
      {historyOpen && !edit && <TranscriptHistory key={line.changes} libraryId={libraryId} mediaId={mediaId} segmentId={line.id} />}
    </li>
  );
}

/** Where a line's save stands, or that it was corrected. */
function LineBadge({ line, status }: { line: TranscriptLine; status: LineStatus | undefined }) {
  switch (status?.kind) {
    case 'saving':
      return <span className="transcript-badge transcript-badge--saving">{MSG_TRANSCRIPT.saving}</span>;
    case 'saved':
      return (
        <span className="transcript-badge transcript-badge--saved" data-testid="line-saved">
          ✓ {status.restored ? MSG_TRANSCRIPT.restored : MSG_TRANSCRIPT.saved}
        </span>
      );
    case 'failed':
      return <span className="transcript-badge transcript-badge--failed">Not saved</span>;
    default:
      return line.original !== null ? (
        <span className="transcript-badge" title={`Heard as: ${line.original}`}>
          {MSG_TRANSCRIPT.edited}
        </span>
      ) : null;
  }
}
