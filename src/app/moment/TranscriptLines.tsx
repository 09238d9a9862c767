import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { checkTranscriptText, MSG_MOMENT, MSG_TRANSCRIPT, type TranscriptLine } from '../../contract';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/errorMessage';
import { searchApi, transcriptApi } from '../api/instance';
import { queryClient } from '../api/queryClient';
import { queryKeys } from '../api/queryKeys';
import { useAccountId } from '../hooks/useAccountId';
import type { TimeRange } from '../state/momentEdits';
import { showToast } from '../state/toasts';
import { noteTranscriptLine } from '../state/transcriptEdits';
import { matchTerms } from './matchWords';
import { TranscriptRow } from './TranscriptRow';
import { editKey, lineKey, moveTo, shownText, type EditKey, type Editing, type LineStatus } from './transcriptEditing';
import { overlaps, useLineFollow } from './useLineFollow';
import { formatClock } from '../ui/format';

type Loaded = { status: 'loading' } | { status: 'ready'; lines: TranscriptLine[]; editable: boolean } | { status: 'error' };

/** How long a line says 'Saved' after its save answered. */
const SAVED_SHOWN_MS = 4000;

type Transcript = { lines: TranscriptLine[]; editable: boolean };

/**
 * Loads the media's transcript (spec section 3), a query loaded afresh each time the panel opens
 * (gcTime 0) and not refetched behind an edit; `replace` puts a line as the server saved it, and
 * the line's history is asked again.
 */
function useTranscript(libraryId: string, mediaId: string) {
  const accountId = useAccountId();
  const key = useMemo(() => queryKeys.transcript(accountId ?? '', libraryId, mediaId), [accountId, libraryId, mediaId]);
  const query = useQuery({
    queryKey: key,
    queryFn: async ({ signal }): Promise<Transcript> => {
      const f = await searchApi.transcript(libraryId, mediaId, signal);
      return { lines: f.segments.filter((s) => s.text.trim()).sort((a, b) => a.start - b.start), editable: f.editable === true };
    },
    retry: false,
    networkMode: 'always',
    staleTime: Infinity,
    gcTime: 0,
  });
  const state: Loaded = query.data ? { status: 'ready', ...query.data } : query.isError ? { status: 'error' } : { status: 'loading' };
  const replace = useCallback(
    (line: TranscriptLine) => {
      queryClient.setQueryData<Transcript>(key, (t) => (t ? { ...t, lines: t.lines.map((l) => (l.id === line.id ? line : l)) } : t));
      void queryClient.invalidateQueries({ queryKey: queryKeys.corrections(accountId ?? '', libraryId, mediaId, line.id) });
    },
    [key, accountId, libraryId, mediaId],
  );
  return { state, replace };
}

/**
 * Scrolls `el` into view, and above the dialog's footer, which stays at the bottom of a scrolling
 * dialog and would cover a line or its editor on a phone.
 */
function reveal(el: HTMLElement) {
  el.scrollIntoView({ block: 'nearest' });
  const dialog = el.closest<HTMLElement>('[role="dialog"]');
  const footer = dialog?.querySelector<HTMLElement>('.dialog__footer');
  if (!dialog || !footer) return;
  const covered = el.getBoundingClientRect().bottom - footer.getBoundingClientRect().top + 8;
  if (covered > 0 && el.getBoundingClientRect().top - covered >= dialog.getBoundingClientRect().top) dialog.scrollTop += covered;
}

/** A save of the line is on its way or failed: the editor's text is sent even when it is the saved one. */
const pending = (s: LineStatus | undefined) => s?.kind === 'saving' || s?.kind === 'failed';

const focusLine = (el: HTMLElement | undefined) => {
  if (!el) return;
  el.focus({ preventScroll: true });
  reveal(el);
};

/** What a tab of the side panel's lines shows and follows (the transcript, the visual summary). */
export interface LinesProps {
  libraryId: string;
  mediaId: string;
  video: HTMLVideoElement | null;
  /** The moment's range: its lines are marked. */
  highlight: TimeRange | null;
  /** The search's words: where lines say them, they are marked. */
  matchText?: string;
  onSeek: (seconds: number) => void;
}

/**
 * The Transcript tab: the media's lines following playback (a click seeks there, as in the visual
 * summary) which the media's owner corrects in place, keyboard first (transcriptEditing.ts): the
 * arrows, Home and End select a line, Enter, F2 or a double click edits it, Enter saves, Escape
 * cancels, Tab saves and edits the next line. Each line says where its save stands (saving, saved,
 * not saved with Retry and Discard); a corrected line offers Restore original and its history.
 */
export function TranscriptLines({ libraryId, mediaId, video, highlight, matchText = '', onSeek }: LinesProps) {
  const { state, replace } = useTranscript(libraryId, mediaId);
  const terms = useMemo(() => matchTerms(matchText), [matchText]);
  const lines = state.status === 'ready' ? state.lines : null;
  const editable = state.status === 'ready' && state.editable;
  const [editing, setEditing] = useState<Editing | null>(null);
  const { listProps, active, firstInMoment, userScrolled } = useLineFollow(lines, video, highlight, editing !== null);
  const [selected, setSelected] = useState(-1);
  const [statuses, setStatuses] = useState<Record<string, LineStatus>>({});
  const [historyOf, setHistoryOf] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const rows = useRef(new Map<string, HTMLButtonElement>());
  const editor = useRef<HTMLTextAreaElement>(null);
  const focusNext = useRef<string | null>(null);
  // The latest save of each line: an older answer arriving late changes nothing.
  const saves = useRef(new Map<string, number>());
  const savedTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const hintId = useId();
  const errorId = useId();

  // A save that fails after the dialog closed is still said (as a toast).
  const mounted = useRef(true);
  useEffect(() => {
    const timers = savedTimers.current;
    mounted.current = true;
    return () => {
      mounted.current = false;
      timers.forEach((t) => clearTimeout(t));
    };
  }, []);

  // A row to focus once it is rendered again (after an edit ends).
  useEffect(() => {
    if (!focusNext.current) return;
    focusLine(rows.current.get(focusNext.current));
    focusNext.current = null;
  });

  const setStatus = useCallback((id: string, status: LineStatus | null) => {
    const timer = savedTimers.current.get(id);
    if (timer) clearTimeout(timer);
    setStatuses((s) => {
      const next = { ...s };
      if (status) next[id] = status;
      else delete next[id];
      return next;
    });
    if (status?.kind === 'saved') {
      const fade = () =>
        setStatuses((s) => {
          if (s[id]?.kind !== 'saved') return s;
          const next = { ...s };
          delete next[id];
          return next;
        });
      savedTimers.current.set(id, setTimeout(fade, SAVED_SHOWN_MS));
    }
  }, []);

  /** Sends a correction (or a restore) of `line` and follows its answer. */
  const send = useCallback(
    (line: TranscriptLine, change: { text: string } | { restore: true }) => {
      const n = (saves.current.get(line.id) ?? 0) + 1;
      saves.current.set(line.id, n);
      const restoring = 'restore' in change;
      setStatus(line.id, { kind: 'saving', text: restoring ? (line.original ?? line.text) : change.text });
      setAnnouncement(MSG_TRANSCRIPT.saving);
      const call = restoring
        ? transcriptApi.restore(libraryId, mediaId, line.id)
        : transcriptApi.correct(libraryId, mediaId, line.id, change.text);
      call.then(
        (saved) => {
          if (saves.current.get(line.id) !== n) return;
          replace(saved);
          noteTranscriptLine(mediaId, saved);
          setStatus(line.id, { kind: 'saved', restored: restoring });
          setAnnouncement(restoring ? MSG_TRANSCRIPT.restored : MSG_TRANSCRIPT.saved);
        },
        (e: unknown) => {
          if (saves.current.get(line.id) !== n) return;
          const message = errorMessage(e);
          if (!mounted.current)
            return void showToast(MSG_TRANSCRIPT.notSaved(message), {
              tone: 'error',
              title: `Transcript line at ${formatClock(line.start)}`,
            });
          setStatus(line.id, { kind: 'failed', text: restoring ? (line.original ?? line.text) : change.text, message, restore: restoring });
          setAnnouncement(MSG_TRANSCRIPT.notSaved(message));
        },
      );
    },
    [libraryId, mediaId, replace, setStatus],
  );

  const focusRow = (i: number) => {
    const line = lines?.[i];
    if (!line) return;
    setSelected(i);
    focusNext.current = line.id;
  };

  const startEdit = (i: number) => {
    const line = lines?.[i];
    if (!line || !editable) return;
    setSelected(i);
    setHistoryOf(null);
    const status = statuses[line.id];
    setEditing({ id: line.id, draft: shownText(line, status), error: null });
  };

  // The editor opens with the caret after the text, its height that of the text.
  useLayoutEffect(() => {
    const el = editor.current;
    if (!el) return;
    el.focus({ preventScroll: true });
    el.setSelectionRange(el.value.length, el.value.length);
  }, [editing?.id]);
  useLayoutEffect(() => {
    const el = editor.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight}px`;
    // A longer text grows the editor: it stays in view, with its Save and Cancel.
    reveal(el.closest('li') ?? el);
  }, [editing?.draft, editing?.id]);

  /** Ends the edit as `action` says; a draft that cannot be saved keeps the editor open, saying why. */
  const finishEdit = (action: EditKey) => {
    if (!editing || !lines) return;
    const i = lines.findIndex((l) => l.id === editing.id);
    const line = lines[i];
    if (!line) return setEditing(null);
    if (action !== 'cancel') {
      const checked = checkTranscriptText(editing.draft);
      if (!checked.ok) {
        setEditing({ ...editing, error: checked.message });
        setAnnouncement(checked.message);
        return;
      }
      // Unchanged text sends nothing, unless a save of the line is on its way or failed.
      if (checked.text !== line.text || pending(statuses[line.id])) send(line, { text: checked.text });
    }
    // After an edit the list stays where the user left it for a while.
    userScrolled();
    if (action === 'saveNext' || action === 'savePrevious') {
      const j = moveTo(i, action === 'saveNext' ? 'next' : 'previous', lines.length);
      if (j !== i) return startEdit(j);
    }
    setEditing(null);
    focusRow(i);
  };
  const finishRef = useRef(finishEdit);
  finishRef.current = finishEdit;

  // Escape is the editor's while it is open: the dialog around it would otherwise close on it. Radix
  // listens on the document in the capture phase, so the window's capture phase is the one before it.
  const isEditing = editing !== null;
  useEffect(() => {
    if (!isEditing) return;
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.isComposing || e.target !== editor.current) return;
      e.preventDefault();
      finishRef.current('cancel');
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [isEditing]);

  const onEditorKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const action = editKey(e.nativeEvent);
    if (!action || action === 'cancel') return;
    e.preventDefault();
    // Tab is the editor's: the dialog's focus trap must not move focus as well.
    e.stopPropagation();
    finishEdit(action);
  };
  // Leaving the editor (a click elsewhere) saves it; its own Save and Cancel keep the focus.
  const onEditorBlur = (e: FocusEvent<HTMLTextAreaElement>) => {
    // (a blur as the editor goes away after Enter, Escape or Tab is not a leave, nor is another window's focus)
    if (!editing || !e.currentTarget.isConnected || !document.hasFocus()) return;
    if (e.relatedTarget instanceof Node && e.currentTarget.closest('li')?.contains(e.relatedTarget)) return;
    const line = lines?.find((l) => l.id === editing.id);
    const checked = checkTranscriptText(editing.draft);
    if (!line || !checked.ok) {
      if (!checked.ok) setEditing({ ...editing, error: checked.message });
      return;
    }
    if (checked.text !== line.text || pending(statuses[line.id])) send(line, { text: checked.text });
    setEditing(null);
  };

  // Keys of a selected line, heard before the timeline's (which listens on the dialog) so that
  // Home and End move in the list rather than the playhead.
  const onRowKey = (e: KeyboardEvent<HTMLOListElement>) => {
    const target = e.target as HTMLElement;
    const i = Number(target.dataset.line ?? NaN);
    if (!lines || !Number.isInteger(i) || target.tagName !== 'BUTTON') return;
    const action = lineKey(e.nativeEvent, editable);
    if (!action) return;
    e.preventDefault();
    if (action === 'edit') return startEdit(i);
    userScrolled();
    const j = moveTo(i, action, lines.length);
    setSelected(j);
    focusLine(rows.current.get(lines[j]!.id));
  };

  if (state.status === 'loading') return <p className="moment-side__note">{MSG_MOMENT.loading}</p>;
  if (!lines?.length) return <p className="moment-side__note">{MSG_MOMENT.noTranscript}</p>;
  const current = selected >= 0 && selected < lines.length ? selected : Math.max(0, active >= 0 ? active : firstInMoment);
  return (
    <div className="transcript">
      <ol {...listProps} className="moment-lines" aria-label="Transcript" onKeyDownCapture={onRowKey}>
        {lines.map((line, i) => {
          const status = statuses[line.id];
          return (
            <TranscriptRow
              key={line.id}
              line={line}
              index={i}
              status={status}
              terms={terms}
              inMoment={overlaps(line, highlight)}
              active={i === active}
              selected={i === current && selected >= 0}
              tabbable={i === current}
              editable={editable}
              edit={editing?.id === line.id ? editing : null}
              historyOpen={historyOf === line.id}
              hintId={hintId}
              errorId={errorId}
              libraryId={libraryId}
              mediaId={mediaId}
              rowRef={(el) => void (el ? rows.current.set(line.id, el) : rows.current.delete(line.id))}
              editorRef={editor}
              onSelect={() => setSelected(i)}
              onSeek={() => {
                setSelected(i);
                onSeek(line.start);
              }}
              onEdit={() => startEdit(i)}
              onDraft={(draft) => setEditing((e) => e && { ...e, draft, error: null })}
              onEditorKey={onEditorKey}
              onEditorBlur={onEditorBlur}
              onFinish={finishEdit}
              onRetry={() => status?.kind === 'failed' && send(line, status.restore ? { restore: true } : { text: status.text })}
              onDiscard={() => {
                setStatus(line.id, null);
                focusRow(i);
              }}
              onRestore={() => send(line, { restore: true })}
              onToggleHistory={() => setHistoryOf(historyOf === line.id ? null : line.id)}
            />
          );
        })}
      </ol>
      {editable && (
        <p id={hintId} className="transcript__hint">
          {editing ? MSG_TRANSCRIPT.editingHint : MSG_TRANSCRIPT.editHint}
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </div>
  );
}
