import { mediaKindOf } from '../../contract';

/** The parts of the File System entry API a drop walk needs (so tests can fake them). */
export interface DropEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (success: (file: File) => void, error?: (e: unknown) => void) => void;
  createReader?: () => { readEntries: (success: (entries: DropEntry[]) => void, error?: (e: unknown) => void) => void };
}

/** Every file under an entry; folders are walked recursively, reading each directory until it is exhausted. */
export async function walkEntry(entry: DropEntry): Promise<File[]> {
  if (entry.isFile && entry.file) {
    const read = entry.file;
    return [await new Promise<File>((resolve, reject) => read(resolve, reject))];
  }
  if (entry.isDirectory && entry.createReader) {
    const reader = entry.createReader();
    const children: DropEntry[] = [];
    // readEntries answers in batches (100 in Chromium) and an empty batch at the end.
    for (;;) {
      const batch = await new Promise<DropEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
      if (!batch.length) break;
      children.push(...batch);
    }
    return (await Promise.all(children.map(walkEntry))).flat();
  }
  return [];
}

/**
 * The files of a drop. Entries must be taken while the event is being dispatched (the data
 * transfer is emptied afterwards), so this reads them synchronously before its first await.
 * Items without an entry (synthetic drops, some browsers) give their File directly.
 */
export function filesFromDrop(dt: DataTransfer): Promise<File[]> {
  const entries: DropEntry[] = [];
  const loose: File[] = [];
  for (const item of Array.from(dt.items ?? [])) {
    if (item.kind !== 'file') continue;
    const entry = (item.webkitGetAsEntry?.() ?? null) as DropEntry | null;
    if (entry) entries.push(entry);
    else {
      const f = item.getAsFile();
      if (f) loose.push(f);
    }
  }
  if (!entries.length && !loose.length) loose.push(...Array.from(dt.files ?? []));
  return Promise.all(entries.map(walkEntry)).then((walked) => [...walked.flat(), ...loose]);
}

/** Splits files into those the upload takes (a video or image by type or extension) and the rest. */
export function partitionFiles<F extends { name: string; type: string }>(files: readonly F[]): { accepted: F[]; rejected: F[] } {
  const accepted: F[] = [];
  const rejected: F[] = [];
  for (const f of files) (mediaKindOf(f.name, f.type) ? accepted : rejected).push(f);
  return { accepted, rejected };
}

/** Whether a drag carries files (not text or a link), so the page only reacts to those. */
export const dragHasFiles = (dt: DataTransfer | null) => Boolean(dt && Array.from(dt.types ?? []).includes('Files'));
