import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  libraryPath,
  linkUrlProblem,
  LINK_INFO_DEBOUNCE_MS,
  MSG_EXTERNAL,
  type ExternalAddAnswer,
  type LinkInfo,
  type Media,
} from '../../../contract';
import { RequestCancelledError } from '../../api/external';
import { externalApi, libraryApi } from '../../api/instance';
import { invalidateCredits } from '../../state/credits';
import { noteLibrariesUsed } from '../../state/lastLibraries';
import { invalidateLibraries } from '../../state/libraries';
import { showToast } from '../../state/toasts';
import { Button } from '../../ui/Button';
import { IconExternal } from '../../ui/icons';
import { ChooseMediaDialog } from './ChooseMediaDialog';
import { ConfirmAddDialog, type ConfirmAddChoice } from './ConfirmAddDialog';
import { addedUrls, addInBatches, linkStatusText, type LinkStatus } from './linkImport';
import './link.css';

type Pending = { videos: Array<{ url: string; title: string; duration: number | null }> };

/**
 * The link tab of 'Add videos' (sections 2, 4 and 5): a URL, checked 800 ms after the last change
 * (a change cancels the pending check), then the choose-media and confirm-add modals.
 */
export function LinkTab({
  target,
  knownUniqueIds,
  onAdded,
}: {
  /** Where the videos go; null: into a new library only. */
  target: { libraryId: string; folderId: string } | null;
  knownUniqueIds: readonly string[];
  onAdded: (libraryId: string, media: Media[]) => void;
}) {
  const [url, setUrl] = useState('');
  const [status, setStatus] = useState<LinkStatus>({ kind: 'idle' });
  const [choosing, setChoosing] = useState(false);
  const [pending, setPending] = useState<Pending | null>(null);
  const [adding, setAdding] = useState(false);
  const navigate = useNavigate();
  const inputId = useId();
  const known = useRef(new Set(knownUniqueIds));
  known.current = new Set(knownUniqueIds);

  useEffect(() => {
    const value = url.trim();
    if (!value) {
      setStatus({ kind: 'idle' });
      return;
    }
    const controller = new AbortController();
    setStatus({ kind: 'loading' });
    const timer = setTimeout(() => {
      const problem = linkUrlProblem(value);
      if (problem) return setStatus({ kind: 'error', message: problem });
      if (addedUrls.has(value)) return setStatus({ kind: 'error', message: MSG_EXTERNAL.alreadyAdded });
      externalApi.peek(value, controller.signal).then(
        (info) => {
          if (controller.signal.aborted) return;
          const single = info.type === 'single' && info.videos.length === 1;
          setStatus(single && known.current.has(info.videos[0]!.uniqueId) ? { kind: 'duplicate' } : { kind: 'valid', info });
        },
        (e: unknown) => {
          if (e instanceof RequestCancelledError || controller.signal.aborted) return;
          setStatus({ kind: 'error', message: (e instanceof Error && e.message) || MSG_EXTERNAL.fetchFallback });
        },
      );
    }, LINK_INFO_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url]);

  const info: LinkInfo | null = status.kind === 'valid' ? status.info : null;
  const canUpload = Boolean(url.trim() && info && !adding);

  const start = () => {
    if (!info) return;
    if (info.type === 'single' && info.videos.length === 1) setPending({ videos: info.videos });
    else setChoosing(true);
  };

  const confirm = async ({ newLibraryName }: ConfirmAddChoice) => {
    if (!info || !pending) return;
    setAdding(true);
    try {
      let dest = target;
      if (newLibraryName !== null || !dest) {
        const lib = await libraryApi.create(newLibraryName ?? '');
        void invalidateLibraries({ saved: lib });
        dest = { libraryId: lib._id, folderId: lib.rootFolderId };
      }
      const { libraryId, folderId } = dest;
      const single = info.type === 'single' && pending.videos.length === 1;
      const answer: ExternalAddAnswer = single
        ? await externalApi.add(libraryId, folderId, pending.videos[0]!.url)
        : await addInBatches(
            pending.videos.map((v) => ({ url: v.url, name: v.title })),
            (items) => externalApi.bulk(libraryId, folderId, { items, type: info.type }),
          );
      const failedUrls = new Set(answer.failed.map((f) => f.url));
      addedUrls.remember(pending.videos.map((v) => v.url).filter((u) => !failedUrls.has(u)));
      if (single && !failedUrls.size) addedUrls.remember([url]);
      if (answer.media.length) showToast(`${answer.media.length} video(s) added. They are indexed once downloaded.`, { tone: 'success' });
      if (answer.failed.length)
        showToast([...new Set(answer.failed.map((f) => f.message))].join(', '), { tone: 'error', title: MSG_EXTERNAL.uploadUrlFailed });
      void invalidateCredits({ quiet: true });
      // The search page opens next on the library the links went into.
      if (answer.media.length) noteLibrariesUsed([libraryId]);
      setPending(null);
      setChoosing(false);
      setUrl('');
      onAdded(libraryId, answer.media);
      if (dest !== target) void navigate(libraryPath(libraryId));
    } catch (e) {
      showToast((e instanceof Error && e.message) || MSG_EXTERNAL.unexpected, { tone: 'error', title: MSG_EXTERNAL.uploadUrlFailed });
    } finally {
      setAdding(false);
    }
  };

  const text = linkStatusText(status);
  return (
    <div className="link-tab">
      <label htmlFor={inputId} className="link-tab__label">
        Link to a video, playlist or channel
      </label>
      <div className="link-tab__row">
        <span className="link-tab__icon" aria-hidden="true">
          <IconExternal size={18} />
        </span>
        <input
          id={inputId}
          className="field__input link-tab__input"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={MSG_EXTERNAL.urlPlaceholder}
          value={url}
          aria-describedby={`${inputId}-status`}
          aria-invalid={status.kind === 'error' || status.kind === 'duplicate' || undefined}
          onChange={(e) => setUrl(e.target.value)}
        />
        <Button onClick={start} disabled={!canUpload}>
          Upload
        </Button>
      </div>
      <p id={`${inputId}-status`} className={`link-tab__status link-tab__status--${status.kind}`} role="status" aria-live="polite">
        {text}
      </p>
      {choosing && info && (
        <ChooseMediaDialog
          info={info}
          knownUniqueIds={known.current}
          onClose={() => setChoosing(false)}
          onChoose={(videos) => setPending({ videos })}
        />
      )}
      {pending && info && (
        <ConfirmAddDialog
          info={info}
          videos={pending.videos}
          adding={adding}
          forceNewLibrary={!target}
          onClose={() => setPending(null)}
          onConfirm={(choice) => void confirm(choice)}
        />
      )}
    </div>
  );
}
