import { useEffect, useRef, useState } from 'react';
import { dragHasFiles, filesFromDrop } from './dropFiles';

/**
 * Page-level drag and drop of files. While files are dragged over the window `dragging` is true
 * (for an overlay); a drop walks folders and hands the files over. With `blockedReason`, a drop is
 * swallowed (so the browser does not open the file) and the reason is reported instead.
 */
export function useFileDrop(
  onFiles: (files: File[]) => void,
  options: { enabled: boolean; blockedReason?: string | null; onBlocked?: (reason: string) => void },
) {
  const [dragging, setDragging] = useState(false);
  const handlers = useRef({ onFiles, ...options });
  useEffect(() => {
    handlers.current = { onFiles, ...options };
  });
  const { enabled } = options;

  useEffect(() => {
    if (!enabled) return;
    // dragenter/dragleave fire for every child element; a counter tells when the pointer left the window.
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!dragHasFiles(e.dataTransfer)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!dragHasFiles(e.dataTransfer)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = handlers.current.blockedReason ? 'none' : 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!dragHasFiles(e.dataTransfer)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      depth = 0;
      setDragging(false);
      const dt = e.dataTransfer;
      if (!dt || (!dragHasFiles(dt) && !dt.files?.length)) return;
      e.preventDefault();
      const { blockedReason, onBlocked } = handlers.current;
      if (blockedReason) {
        onBlocked?.(blockedReason);
        return;
      }
      void filesFromDrop(dt).then((files) => {
        if (files.length) handlers.current.onFiles(files);
      });
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, [enabled]);

  return dragging;
}
