import { useRef, useState, type DragEvent } from 'react';
import { FILE_INPUT_ACCEPT } from '../../contract';
import { Button } from '../ui/Button';
import { IconUpload } from '../ui/icons';
import { ReasonTooltip } from '../ui/Tooltip';
import { dragHasFiles, filesFromDrop } from './dropFiles';
import './upload.css';

/** The hidden multi-file input every "add videos" control opens (accepts video/* plus .mkv and .mov). */
export function FileInput({ inputRef, onFiles }: { inputRef: React.RefObject<HTMLInputElement | null>; onFiles: (files: File[]) => void }) {
  return (
    <input
      ref={inputRef}
      type="file"
      multiple
      accept={FILE_INPUT_ACCEPT}
      hidden
      data-testid="file-input"
      onChange={(e) => {
        const files = Array.from(e.target.files ?? []);
        // Reset so that choosing the same file again fires change again.
        e.target.value = '';
        if (files.length) onFiles(files);
      }}
    />
  );
}

/**
 * The upload box: a drop target that also opens the file picker. With `disabledReason` it explains
 * why nothing can be added instead of offering a dead control.
 */
export function UploadBox({
  onFiles,
  title = 'Drop videos here',
  hint = 'MP4, MOV, WebM or MKV videos and images. Folders are searched for media.',
  buttonLabel = 'Choose files',
  disabledReason,
}: {
  onFiles: (files: File[]) => void;
  title?: string;
  hint?: string;
  buttonLabel?: string;
  disabledReason?: string | null;
}) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const disabled = Boolean(disabledReason);

  const onDragOver = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer) || disabled) return;
    e.preventDefault();
    setOver(true);
  };
  const onDrop = (e: DragEvent) => {
    setOver(false);
    if (disabled) return;
    e.preventDefault();
    // The box handles its own drop; a page-level drop handler must not add the files twice.
    e.stopPropagation();
    void filesFromDrop(e.dataTransfer).then((files) => files.length && onFiles(files));
  };

  const button = (
    <Button variant="secondary" onClick={() => inputRef.current?.click()} disabled={disabled} aria-disabled={disabled || undefined}>
      <IconUpload size={18} /> {buttonLabel}
    </Button>
  );

  return (
    <div
      className={`upload-box${over ? ' upload-box--over' : ''}${disabled ? ' upload-box--disabled' : ''}`}
      onDragOver={onDragOver}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <span className="upload-box__icon icon-tile">
        <IconUpload size={26} />
      </span>
      <p className="upload-box__title">{title}</p>
      <p className="upload-box__hint">{disabledReason ?? hint}</p>
      <ReasonTooltip reason={disabledReason}>{button}</ReasonTooltip>
      <FileInput inputRef={inputRef} onFiles={onFiles} />
    </div>
  );
}
