import { useRef, useState, type ClipboardEvent, type DragEvent, type ReactNode } from 'react';
import {
  MSG_SEARCH,
  MSG_SEARCH_UI,
  SEARCH_IMAGE_SEND_QUALITY,
  searchImageSendSize,
  SEARCH_RESULT_TYPE_LABEL,
  TOAST_MS,
  type Library,
  type SearchResultType,
} from '../../../contract';
import { errorMessage } from '../../api/errorMessage';
import { loadImage } from '../../api/images';
import { showToast } from '../../state/toasts';
import { IconButton } from '../../ui/Button';
import { IconImage, IconSearch } from '../../ui/icons';
import { SegmentedControl } from '../../ui/SegmentedControl';
import { Spinner } from '../../ui/Spinner';
import { dragHasFiles, filesFromDrop } from '../../upload/dropFiles';
import { LibrarySwitcher } from './LibrarySwitcher';
import { asImageDataUrl, isImageDataUrl, pickSearchImage } from './searchImage';

const readDataUrl = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The image could not be read.'));
    reader.readAsDataURL(blob);
  });

/** The image as a data:image/ URL, scaled down when large (kept as it is where the browser cannot decode it). */
async function imageQueryUrl(file: File): Promise<string | null> {
  try {
    const bitmap = await createImageBitmap(file);
    const size = searchImageSendSize(bitmap.width, bitmap.height, file.size);
    if (size) {
      const canvas = document.createElement('canvas');
      canvas.width = size.width;
      canvas.height = size.height;
      canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
      bitmap.close();
      return canvas.toDataURL('image/jpeg', SEARCH_IMAGE_SEND_QUALITY);
    }
    bitmap.close();
  } catch {
    // Not decodable here (e.g. HEIC): sent as it is, and the server says whether it can read it.
  }
  return asImageDataUrl(await readDataUrl(file), file);
}

/** The image button's name (and tooltip). */
const PICK_IMAGE_LABEL = 'Search with an image';

/**
 * The result types as the search bar offers them: the spec's names where they are plain (visual,
 * conversational); unified, which the spec calls multimodal, is 'Both' as issue 37 asks, in the words
 * of the sign-in page's promise ('what is seen, what is said, or both'). Its tooltip and the toast
 * keep the spec's name.
 */
export const RESULT_TYPE_OPTION_LABEL: Record<SearchResultType, string> = {
  visual: 'Visual',
  transcript: 'Conversational',
  unified: 'Both',
};
const RESULT_TYPE_TITLE: Record<SearchResultType, string> = {
  visual: 'What is seen',
  transcript: 'What is said',
  unified: 'Multimodal: what is seen and what is said, together',
};

/**
 * The search bar (spec section 2): a two-row text area, the library switcher, the result-type toggle,
 * the media pill and the query image or moment. Dropping or pasting an image starts an image search,
 * and so does choosing one with the image button (the keyboard's way in).
 */
/** Whether a drag carries a link (an image dragged from a page); its URL can be read only on drop. */
const dragHasLink = (dt: DataTransfer | null) => Boolean(dt && Array.from(dt.types ?? []).includes('text/uri-list'));

/** The http(s) link a drop carries, or null. */
function imageLinkOf(dt: DataTransfer): string | null {
  if (!dragHasLink(dt)) return null;
  const url = dt
    .getData('text/uri-list')
    .split(/\r?\n/)
    .find((l) => l && !l.startsWith('#'));
  return url && /^https?:/i.test(url) ? url : null;
}

export function SearchBar({
  text,
  onTextChange,
  onSubmit,
  onImage,
  query,
  mediaPill,
  libraries,
  selection,
  onSelectionChange,
  resultType,
  unifiedEnabled,
  onResultTypeChange,
  searching,
  autoFocus,
}: {
  text: string;
  onTextChange: (text: string) => void;
  onSubmit: () => void;
  onImage: (dataUrl: string) => void;
  /** The query image or moment preview (with its remove button), if any. */
  query: ReactNode;
  mediaPill: ReactNode;
  libraries: readonly Library[];
  selection: readonly string[];
  onSelectionChange: (ids: string[]) => void;
  resultType: SearchResultType;
  unifiedEnabled: boolean;
  onResultTypeChange: (type: SearchResultType) => void;
  searching: boolean;
  autoFocus?: boolean;
}) {
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  // Drop, paste and the picker behave the same: images only, one at a time, never SVG (section 5).
  const takeFiles = (files: File[]) => {
    const { file, notice } = pickSearchImage(files);
    if (notice === 'unsupported')
      showToast(MSG_SEARCH_UI.unsupportedFile, {
        title: MSG_SEARCH_UI.unsupportedFileTitle,
        tone: 'error',
        durationMs: TOAST_MS.dragError,
      });
    if (notice === 'multiple')
      showToast(MSG_SEARCH_UI.multipleImages, { title: MSG_SEARCH_UI.multipleImagesTitle, durationMs: TOAST_MS.dragError });
    if (!file) return;
    void imageQueryUrl(file).then((url) => {
      if (url && isImageDataUrl(url)) onImage(url);
      else
        showToast(MSG_SEARCH_UI.unsupportedFile, {
          title: MSG_SEARCH_UI.unsupportedFileTitle,
          tone: 'error',
          durationMs: TOAST_MS.dragError,
        });
    });
  };

  // A picture dragged from a page (a result's thumbnail) comes as a link: it is loaded, then searched with.
  const takeLink = (url: string) =>
    void loadImage(url).then(
      (file) => takeFiles([file]),
      (e: unknown) => showToast(e instanceof Error ? e.message : errorMessage(e), { tone: 'error', durationMs: TOAST_MS.dragError }),
    );

  const onDragOver = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer) && !dragHasLink(e.dataTransfer)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (e: DragEvent) => {
    setDragging(false);
    const dt = e.dataTransfer;
    const link = imageLinkOf(dt);
    if (!dragHasFiles(dt) && !dt.files?.length && link) {
      e.preventDefault();
      e.stopPropagation();
      return takeLink(link);
    }
    if (!dragHasFiles(dt) && !dt.files?.length) return;
    e.preventDefault();
    e.stopPropagation();
    void filesFromDrop(dt).then((files) => files.length && takeFiles(files));
  };
  const onPaste = (e: ClipboardEvent) => {
    const files = Array.from(e.clipboardData?.files ?? []);
    if (!files.length) return;
    e.preventDefault();
    takeFiles(files);
  };

  const types: SearchResultType[] = unifiedEnabled ? ['visual', 'transcript', 'unified'] : ['visual', 'transcript'];
  return (
    <div
      className={`search-bar${dragging ? ' search-bar--dragging' : ''}`}
      onDragEnter={onDragOver}
      onDragOver={onDragOver}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
      data-testid="search-bar"
    >
      <div className="search-bar__input-row">
        {query}
        <label className="search-bar__field">
          <span className="visually-hidden">Search</span>
          <textarea
            className="search-bar__textarea"
            rows={2}
            placeholder={MSG_SEARCH.placeholder}
            value={text}
            autoFocus={autoFocus}
            onChange={(e) => onTextChange(e.target.value)}
            onPaste={onPaste}
            onKeyDown={(e) => {
              // Enter searches at once; Shift+Enter is a new line.
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                onSubmit();
              }
            }}
          />
        </label>
        <IconButton label={PICK_IMAGE_LABEL} onClick={() => picker.current?.click()}>
          <IconImage size={20} />
        </IconButton>
        <input
          ref={picker}
          type="file"
          // SVG is refused by the same rule as a drop, with the same toast.
          accept="image/*,.heic,.heif,.avif"
          hidden
          tabIndex={-1}
          data-testid="search-image-input"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            // Choosing the same file again must fire again.
            e.target.value = '';
            if (files.length) takeFiles(files);
          }}
        />
        <span className="search-bar__status" aria-hidden="true">
          {searching ? <Spinner size={20} /> : <IconSearch size={20} />}
        </span>
      </div>
      <div className="search-bar__controls">
        <LibrarySwitcher libraries={libraries} selection={selection} onChange={onSelectionChange} />
        <SegmentedControl<SearchResultType>
          label="Result type"
          value={resultType}
          onValueChange={(t) => {
            onResultTypeChange(t);
            showToast(MSG_SEARCH_UI.nowViewing(SEARCH_RESULT_TYPE_LABEL[t]), { title: MSG_SEARCH_UI.searchModeUpdated });
          }}
          options={types.map((t) => ({ value: t, label: RESULT_TYPE_OPTION_LABEL[t], title: RESULT_TYPE_TITLE[t] }))}
        />
        {mediaPill}
        <span className="search-bar__hint">
          <IconImage size={15} /> Drop, paste or choose an image to search with it
        </span>
      </div>
      {dragging && (
        <div className="search-bar__drop cover" aria-hidden="true">
          <IconImage size={22} /> Drop an image to search
        </div>
      )}
    </div>
  );
}
