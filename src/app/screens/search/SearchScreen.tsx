import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useSnapshot } from 'valtio';
import { MSG_SEARCH, TOAST_MS, parseMomentId, type Media, type Moment, type SearchRequest, type SearchResultType } from '../../../contract';
import { useLibraries } from '../../hooks/useLibraries';
import { usePreviewToken } from '../../hooks/usePreviewToken';
import { useEscapeToClear } from '../../hooks/useEscapeToClear';
import { lastLibraries, noteLibrariesUsed } from '../../state/lastLibraries';
import { showToast } from '../../state/toasts';
import { preferences, setPreference } from '../../state/preferences';
import { ensurePreviewToken, thumbnailUrl } from '../../state/previewTokens';
import { correctedText, transcriptEdits } from '../../state/transcriptEdits';
import {
  clearMomentSelection,
  isUnifiedSearchEnabled,
  searchState,
  selectMoments,
  setSearchedLibraries,
  toggleMoment,
} from '../../state/search';
import { Alert } from '../../ui/Alert';
import { Button, IconButton } from '../../ui/Button';
import { IconClose, IconFilm, IconImage, IconSearch } from '../../ui/icons';
import { Switch } from '../../ui/Switch';
import { libraryName } from '../../libraries/LibraryCard';
import { MomentDialog } from '../../moment/MomentDialog';
import { dragHasFiles } from '../../upload/dropFiles';
import { emojiNamesLoaded, hasEmoji, loadEmojiNames, normalizeSearchText } from './emoji';
import { effectiveSelection } from './librarySwitcher';
import { mediaNameOf } from '../../media/mediaInfo';
import { splitByConfidence } from './confidence';
import { ResultsGrid } from './ResultsGrid';
import { SearchBar } from './SearchBar';
import { defaultResultType, hasSearchTerms, parseSearchQuery, serializeSearchQuery, type SearchQuery } from './searchQuery';
import { MergeButton } from '../../merge/MergeButton';
import { SelectionDownload } from './SelectionDownload';
import { useMediaLookup } from './useMediaLookup';
import { useMomentSearch } from './useMomentSearch';
import { newQueryImageId, saveQueryImage, useQueryImage } from './queryImages';
import { formatClock } from '../../ui/format';
import './search.css';

/** History state of a moment dialog this page opened (so closing it can go back). */
const OPENED_HERE = 'momentDialogOpenedHere';
const QUERY_IMAGE_GONE = 'That search image is no longer kept on this device: drop, paste or choose it again.';

/**
 * /search (spec section 2). The query string (libs, text, moment, image, media, search, open) is the
 * search state's source of truth: read on load, rewritten in step with every change. A query image,
 * too big for a URL, is kept on the device and the address names it (queryImages.ts).
 */
export default function SearchScreen() {
  const [params, setParams] = useSearchParams();
  const unifiedEnabled = isUnifiedSearchEnabled();
  const query = useMemo(() => parseSearchQuery(params, unifiedEnabled), [params, unifiedEnabled]);
  const { items: list, status: librariesStatus, error: librariesError, reload: reloadLibraries } = useLibraries();
  const { autoplaymoments } = useSnapshot(preferences);
  const { selected, selecting } = useSnapshot(searchState);
  const queryImage = useQueryImage(query.image);
  const image = queryImage.dataUrl;
  const location = useLocation();
  const navigate = useNavigate();
  const [known, setKnown] = useState<Record<string, Media>>({});
  // The text area edits a draft: the address follows a moment later (a navigation), and must not
  // overwrite keys typed meanwhile. Texts the page wrote are recognised when they come back.
  const [draft, setDraft] = useState(query.text);
  const written = useRef<string[]>([]);
  useEffect(() => {
    const i = written.current.indexOf(query.text);
    if (i >= 0) written.current.splice(0, i + 1);
    else {
      written.current = [];
      setDraft(query.text);
    }
  }, [query.text]);

  // A file dropped beside the search bar must not make the browser leave the page to open it.
  useEffect(() => {
    const guard = (e: DragEvent) => {
      if (dragHasFiles(e.dataTransfer)) e.preventDefault();
    };
    window.addEventListener('dragover', guard);
    window.addEventListener('drop', guard);
    return () => {
      window.removeEventListener('dragover', guard);
      window.removeEventListener('drop', guard);
    };
  }, []);
  useEffect(() => {
    const previous = document.title;
    document.title = 'Search · Clipseek';
    return () => void (document.title = previous);
  }, []);

  const switcherList = useMemo(
    () =>
      (list ?? []).map((l) => ({ id: l._id, name: libraryName(l), isDemo: l.isDemo, isDefault: l.isDefault, hasMedia: l.stats.count > 0 })),
    [list],
  );
  // With nothing (known) chosen: the libraries last searched, browsed or uploaded into; the demo
  // library only when there is nothing of the user's own to search.
  const { ids: remembered } = useSnapshot(lastLibraries);
  const selection = useMemo(
    () => (list ? effectiveSelection(query.libs, switcherList, remembered) : query.libs),
    [list, query.libs, switcherList, remembered],
  );

  const write = useCallback((next: SearchQuery, push = false) => setParams(serializeSearchQuery(next), { replace: !push }), [setParams]);
  const update = useCallback((patch: Partial<SearchQuery>, push = false) => write({ ...query, ...patch }, push), [query, write]);

  // Keep the address in step: the libraries actually searched, the type actually used.
  useEffect(() => {
    if (!list) return;
    const canonical = serializeSearchQuery({ ...query, libs: selection });
    if (canonical.toString() !== params.toString()) setParams(canonical, { replace: true });
  }, [list, query, selection, params, setParams]);

  const byId = useMemo(() => new Map((list ?? []).map((l) => [l._id, l])), [list]);
  // The type searched: the one chosen, else both seen and said where a library searched has speech.
  const hasSpeech = useMemo(() => selection.some((id) => (byId.get(id)?.stats.withSpeech ?? 0) > 0), [selection, byId]);
  const resultType = query.search ?? defaultResultType(hasSpeech, unifiedEnabled);
  useEffect(() => {
    searchState.resultType = resultType;
    searchState.mediaId = query.media;
  }, [resultType, query.media]);

  // Another library (or set of them) clears the moment selection; the first known set only records.
  useEffect(() => {
    if (list) setSearchedLibraries(selection);
  }, [list, selection]);

  useEscapeToClear(selecting, clearMomentSelection);
  const terms = hasSearchTerms(query);
  // An address naming an image this device no longer keeps (another browser, signed out since, a
  // week old): say so, and leave the image out of the address.
  const reportedGone = useRef<string | null>(null);
  useEffect(() => {
    if (queryImage.status !== 'missing' || !query.image) return;
    // Said once per image; taken out of the address until it stays out (a write of the address
    // racing this one, such as the libraries being filled in, may put it back).
    if (reportedGone.current !== query.image) {
      reportedGone.current = query.image;
      showToast(QUERY_IMAGE_GONE, { tone: 'error', durationMs: TOAST_MS.dragError });
    }
    update({ image: null });
  }, [queryImage.status, query.image, update]);
  useEffect(() => {
    if (!terms) clearMomentSelection();
  }, [terms]);

  // Emoji in the text are searched by their names, from a table loaded the first time one is typed.
  const [emojiReady, setEmojiReady] = useState(emojiNamesLoaded);
  const waitingForEmoji = !emojiReady && hasEmoji(query.text);
  useEffect(() => {
    if (waitingForEmoji) void loadEmojiNames().then(() => setEmojiReady(true));
  }, [waitingForEmoji]);

  const body = useMemo<SearchRequest | null>(() => {
    const within = query.media ? { mediaIds: [query.media] } : {};
    if (query.moment) return { clipId: query.moment, ...within };
    if (image) return { image, ...within };
    if (waitingForEmoji) return null;
    const text = normalizeSearchText(query.text);
    return text ? { text, ...within } : null;
  }, [query.moment, query.media, query.text, image, waitingForEmoji]);

  const { outcome, searchNow } = useMomentSearch(list ? selection : [], resultType, body);
  // The libraries searched are the ones the page opens on next time (here or on another device).
  const searchRuns = Boolean(list && body);
  useEffect(() => {
    if (searchRuns) noteLibrariesUsed(selection);
  }, [searchRuns, selection]);
  // Low-confidence results stay behind a toggle (issue 18); a new answer hides them again.
  const [showLow, setShowLow] = useState(false);
  useEffect(() => setShowLow(false), [outcome]);
  const { confident, low } = useMemo(() => splitByConfidence(outcome.results), [outcome.results]);
  const shown = useMemo(() => (showLow ? [...confident, ...low] : confident), [showLow, confident, low]);
  // Until the libraries (or the query image) are known there is nothing to search with yet: that counts as searching.
  const searching = terms && (outcome.status === 'searching' || queryImage.status === 'loading' || (!list && librariesStatus !== 'error'));

  useEffect(() => {
    if (Object.keys(outcome.medias).length) setKnown((k) => ({ ...k, ...outcome.medias }));
    for (const id of new Set(outcome.results.map((m) => m.libraryId))) void ensurePreviewToken(id);
  }, [outcome]);

  const multi = selection.length > 1;
  const { lines: correctedLines } = useSnapshot(transcriptEdits);
  // Results the server answers from now on say the corrections themselves.
  useEffect(() => void (transcriptEdits.lines = {}), [outcome.results]);
  const captionOf = useCallback(
    (m: Moment) => {
      const lib = multi ? byId.get(m.libraryId) : undefined;
      // (a line corrected in the moment dialog shows its new words until the next search)
      // (the confidence is on the card's picture, every card's)
      return (correctedText(correctedLines, m) ?? m.text).trim() || (lib ? libraryName(lib) : null);
    },
    [multi, byId, correctedLines],
  );

  const onSimilar = useCallback((m: Moment) => write({ ...query, text: '', moment: m.id, image: null, open: null }, true), [query, write]);
  const onToggle = useCallback((m: Moment) => toggleMoment(m), []);
  // The moment dialog has its own address (query `open`): opening it is a navigation, so Back closes
  // it and Forward opens it again; a link to it opens it.
  const onOpen = useCallback(
    (m: Moment) => setParams(serializeSearchQuery({ ...query, open: m.id }), { state: { [OPENED_HERE]: true } }),
    [query, setParams],
  );
  const openedHere = Boolean((location.state as Record<string, unknown> | null)?.[OPENED_HERE]);
  const onClose = useCallback(() => {
    // Closing what this page opened goes back, so the history keeps no entry for it and Forward reopens it.
    if (openedHere) void navigate(-1);
    else write({ ...query, open: null });
  }, [openedHere, navigate, query, write]);

  const momentRef = query.moment ? parseMomentId(query.moment) : null;
  const momentMedia = useMediaLookup(momentRef?.mediaId ?? null, selection, known);
  const filterMedia = useMediaLookup(query.media, selection, known);
  const openRef = useMemo(() => (query.open ? parseMomentId(query.open) : null), [query.open]);
  const openMedia = useMediaLookup(openRef?.mediaId ?? null, selection, known);
  const open = useMemo<Moment | null>(() => {
    if (!query.open || !openRef) return null;
    const found = outcome.results.find((m) => m.id === query.open);
    if (found) return found;
    // A linked moment not among the results (yet): its id carries its media and range.
    if (!openMedia) return null;
    return {
      id: query.open,
      mediaId: openRef.mediaId,
      libraryId: openMedia.libraryId,
      startTime: openRef.start,
      endTime: openRef.end,
      text: '',
      score: 0,
    };
  }, [query.open, openRef, outcome.results, openMedia]);

  const queryPreview = query.image ? (
    <QueryChip
      picture={image ? <img src={image} alt="" /> : <IconImage size={20} />}
      title="Image search"
      onRemove={() => update({ image: null })}
      removeLabel="Remove the query image"
    />
  ) : query.moment ? (
    <QueryChip
      picture={<MomentPicture media={momentMedia} t={momentRef?.start ?? 0} />}
      title={momentMedia ? mediaNameOf(momentMedia) : 'Similar moments'}
      detail={momentRef ? `${formatClock(momentRef.start)} – ${formatClock(momentRef.end)}` : undefined}
      onRemove={() => update({ moment: null })}
      removeLabel="Remove the query moment"
    />
  ) : null;

  const mediaPill = query.media ? (
    <span className="pill pill--accent media-pill" title={filterMedia ? mediaNameOf(filterMedia) : undefined}>
      <IconFilm size={13} />
      <span className="media-pill__name">In {filterMedia ? mediaNameOf(filterMedia) : 'one video'}</span>
      <button type="button" className="media-pill__clear" aria-label="Search all videos" onClick={() => update({ media: null })}>
        <IconClose size={12} />
      </button>
    </span>
  ) : null;

  const bar = (
    <SearchBar
      text={draft}
      onTextChange={(text) => {
        setDraft(text);
        written.current = [...written.current, text].slice(-50);
        // New words make a new text query: an image or moment query gives way.
        update({ text, moment: null, image: null });
      }}
      onSubmit={searchNow}
      onImage={(url) => {
        // A new image is a new search: its own history entry, so Back returns to the one before.
        const id = newQueryImageId();
        void saveQueryImage(id, url);
        // The words give way in the same render as the address, not one effect later.
        setDraft('');
        write({ ...query, text: '', moment: null, image: id, open: null }, true);
      }}
      query={queryPreview}
      mediaPill={mediaPill}
      libraries={list ?? []}
      selection={selection}
      onSelectionChange={(libs) => {
        noteLibrariesUsed(libs);
        update({ libs });
      }}
      resultType={resultType}
      unifiedEnabled={unifiedEnabled}
      onResultTypeChange={(search: SearchResultType) => update({ search })}
      searching={searching}
      autoFocus
    />
  );

  const librariesAlert = librariesStatus === 'error' && (
    <Alert tone="error" title="We couldn't load your libraries">
      {librariesError}{' '}
      <Button variant="link" onClick={reloadLibraries}>
        Try again
      </Button>
    </Alert>
  );

  const count = shown.length;
  const lowToggle = low.length > 0 && (
    <Button size="sm" variant="link" onClick={() => setShowLow((v) => !v)}>
      {showLow ? MSG_SEARCH.hideLowConfidence : MSG_SEARCH.showLowConfidence(low.length)}
    </Button>
  );
  // The results as either grid shows them (the low-confidence ones alone, or all that are shown).
  const grid = {
    results: shown,
    medias: outcome.medias,
    autoplay: autoplaymoments,
    selected: selected as Moment[],
    selecting,
    captionOf,
    onOpen,
    onToggle,
    onSimilar,
  };
  const textQueryOnly = resultType === 'transcript' && !body?.text;
  // One tree for both states, so the search bar (and the caret in it) stays put when terms appear.
  return (
    <div className={`page search-page${terms ? '' : ' search-page--empty'}`}>
      <h1 className="visually-hidden">Search</h1>
      {!terms && (
        <div className="search-hero">
          <span className="search-hero__icon" aria-hidden="true">
            <IconSearch size={26} />
          </span>
          <h2 className="search-hero__headline">{MSG_SEARCH.searchHeadline}</h2>
          <p className="search-hero__subline">{MSG_SEARCH.searchSubline}</p>
        </div>
      )}
      {librariesAlert}
      <div className="search-page__bar">{bar}</div>
      {terms && (
        <>
          <div className="search-toolbar spread">
            <span className="search-toolbar__status" aria-live="polite">
              {searching
                ? 'Searching…'
                : outcome.status === 'done'
                  ? `${count} ${count === 1 ? 'moment' : 'moments'}${multi ? ` in ${selection.length} libraries` : ''}`
                  : ''}
            </span>
            {(count > 0 || searching) && (
              <Switch checked={autoplaymoments} onCheckedChange={(v) => setPreference('autoplaymoments', v)} label="Autoplay moments" />
            )}
          </div>
          {outcome.status === 'error' ? (
            <Alert tone="error" title="The search failed">
              {outcome.error}
            </Alert>
          ) : outcome.status === 'done' && !confident.length && low.length && !searching ? (
            <>
              <div className="search-empty">
                <p className="search-empty__title">{MSG_SEARCH.noConfidentMatches}</p>
                {lowToggle}
              </div>
              {showLow && <ResultsGrid {...grid} searching={false} />}
            </>
          ) : outcome.status === 'done' && !count && !searching ? (
            <div className="search-empty">
              <p className="search-empty__title">{query.moment ? MSG_SEARCH.noSimilarMoments : 'No moments found'}</p>
              <p className="muted">
                {query.moment
                  ? MSG_SEARCH.noSimilarMomentsDetail
                  : textQueryOnly
                    ? 'Conversational search matches spoken words: type some, or switch to visual results.'
                    : 'Try other words, another result type, or another library.'}
              </p>
            </div>
          ) : (
            <>
              <ResultsGrid {...grid} searching={searching} />
              {!searching && lowToggle && <div className="search-low-toggle">{lowToggle}</div>}
            </>
          )}
        </>
      )}
      {selecting && (
        <div className="selection-bar" role="toolbar" aria-label="Selection">
          <span className="selection-bar__count" aria-live="polite">
            {selected.length} selected
          </span>
          <Button
            size="sm"
            variant="ghost"
            onClick={() => selectMoments(shown)}
            disabled={shown.every((m) => selected.some((s) => s.id === m.id))}
          >
            Select all
          </Button>
          <Button size="sm" variant="ghost" onClick={clearMomentSelection}>
            Deselect all
          </Button>
          <SelectionDownload moments={selected as Moment[]} medias={{ ...known, ...outcome.medias }} libraries={list ?? []} />
          <MergeButton moments={selected as Moment[]} medias={{ ...known, ...outcome.medias }} libraries={list ?? []} />
          <IconButton label="Close selection" onClick={clearMomentSelection}>
            <IconClose size={18} />
          </IconButton>
        </div>
      )}
      {open && (
        <MomentDialog
          moment={open}
          media={outcome.medias[open.mediaId] ?? known[open.mediaId] ?? openMedia ?? undefined}
          libraryLabel={multi && byId.get(open.libraryId) ? libraryName(byId.get(open.libraryId)!) : null}
          onClose={onClose}
          onSimilar={onSimilar}
          // the query's words, and what was said that matched them by meaning ('doctor' for 'physician')
          matchText={[query.text, ...(open.match?.words ?? [])].join(' ')}
          onSearchInMedia={query.media === open.mediaId ? undefined : (m) => update({ media: m.mediaId, open: null })}
        />
      )}
    </div>
  );
}

/** The query image or moment beside the text area, with its remove button. */
function QueryChip({
  picture,
  title,
  detail,
  onRemove,
  removeLabel,
}: {
  picture: ReactNode;
  title: string;
  detail?: string;
  onRemove: () => void;
  removeLabel: string;
}) {
  return (
    <div className="query-chip" data-testid="query-preview">
      <span className="query-chip__picture">{picture}</span>
      <span className="query-chip__text">
        <span className="query-chip__title" title={title}>
          {title}
        </span>
        {detail && <span className="query-chip__detail">{detail}</span>}
      </span>
      <IconButton label={removeLabel} className="query-chip__remove" onClick={onRemove}>
        <IconClose size={14} />
      </IconButton>
    </div>
  );
}

function MomentPicture({ media, t }: { media: Media | null; t: number }) {
  const token = usePreviewToken(media?.libraryId);
  if (!media || !token) return <IconImage size={20} />;
  return <img src={thumbnailUrl(media.libraryId, media._id, token, t)} alt="" />;
}
