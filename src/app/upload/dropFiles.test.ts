import { describe, expect, it } from 'vitest';
import { partitionFiles, walkEntry, type DropEntry } from './dropFiles';

const fileEntry = (name: string): DropEntry => ({
  isFile: true,
  isDirectory: false,
  name,
  file: (ok) => ok(new File(['x'], name)),
});

/** A folder whose reader answers in batches of two, then an empty batch, like Chromium's. */
const dirEntry = (name: string, children: DropEntry[]): DropEntry => ({
  isFile: false,
  isDirectory: true,
  name,
  createReader: () => {
    let offset = 0;
    return {
      readEntries: (ok) => {
        const batch = children.slice(offset, offset + 2);
        offset += batch.length;
        setTimeout(() => ok(batch), 0);
      },
    };
  },
});

describe('dropped files', () => {
  it('walks folders recursively, reading every batch', async () => {
    const tree = dirEntry('trip', [
      fileEntry('a.mp4'),
      fileEntry('b.mov'),
      fileEntry('notes.txt'),
      dirEntry('day 2', [fileEntry('c.webm'), dirEntry('empty', []), fileEntry('d.jpg')]),
    ]);
    const files = await walkEntry(tree);
    expect(files.map((f) => f.name).sort()).toEqual(['a.mp4', 'b.mov', 'c.webm', 'd.jpg', 'notes.txt']);
  });

  it('accepts videos and images by extension or type, and rejects the rest', () => {
    const files = [
      { name: 'clip.MP4', type: '' },
      { name: 'movie.mkv', type: '' },
      { name: 'photo.heic', type: '' },
      { name: 'noext', type: 'video/quicktime' },
      { name: 'readme.txt', type: 'text/plain' },
      { name: 'archive.zip', type: 'application/zip' },
    ];
    const { accepted, rejected } = partitionFiles(files);
    expect(accepted.map((f) => f.name)).toEqual(['clip.MP4', 'movie.mkv', 'photo.heic', 'noext']);
    expect(rejected.map((f) => f.name)).toEqual(['readme.txt', 'archive.zip']);
  });
});
